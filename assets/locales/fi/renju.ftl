## Renju (issue 13): kielletyt pisteet, säännöt ja avaukset

preset-renju = Renju
renju-shape-double_three = tupla-kolmonen
renju-shape-double_four = tupla-nelonen
renju-shape-overline = ylipitkä rivi
err-forbidden-renju = { $point } on mustalle kielletty piste: siitä syntyisi { $shape }. Renjussa musta ei saa tehdä tupla-kolmosta, tupla-nelosta eikä ylipitkää riviä (kuusi tai enemmän), ellei siirto tee täsmälleen viittä.
err-rules-renju-fixed = Renju kiinnittää asetuksen { $key }: kaksi pelaajaa, viisi rivissä, ei kaappauksia ja oma ylipitkän rivin sääntö.
err-rules-renju-opening = Tätä avausta ei pelata Renjussa: valitse taraguchi-10, soosorv-8, swap2 tai none.
rules-renju-win = Voitto: viisi rivissä. Musta (joka aloittaa) voittaa vain täsmälleen viidellä; valkoinen voittaa viidellä tai useammalla.
rules-renju-forbidden = Musta ei saa pelata kiellettyyn pisteeseen: sellaiseen, joka tekee tupla-kolmosen (kaksi avointa kolmosta kerralla), tupla-nelosen (kaksi nelosta kerralla, myös samalla rivillä) tai ylipitkän rivin (kuusi tai enemmän). Siirto, joka tekee täsmälleen viisi, voittaa, vaikka se tekisi myös jonkin näistä. Valkoisella ei ole rajoituksia, ja se voittaa pakottamalla mustan kiellettyyn pisteeseen.
rules-renju-three = Kolmonen lasketaan vain, jos siitä voi tehdä avoimen nelosen siirrolla, joka on itse sallittu.
err-rules-renju-opening-preset = Taraguchi-10 ja Soosõrv-8 ovat Renjun avauksia: valitse niille peliksi Renju.
err-opening-area = { $point } on avausalueen ulkopuolella: siirto { $move } menee keskimmäisen { $side }×{ $side }-neliön sisään.
err-offer-count = Tarjoa täsmälleen { $expected } viidettä siirtoa (annoit { $given }).
err-offer-repeated = { $point } on tarjottu kahdesti.
err-offer-symmetric = { $a } ja { $b } ovat symmetrisiä: niistä syntyy sama asema. Tarjoa toisistaan eroavia viidensiä siirtoja.
err-not-offered = { $point } ei ole yksi tarjotuista viidensistä siirroista.
rules-opening-taraguchi-10 = Avaus (Taraguchi-10): ensimmäinen pelaaja (alustava musta) asettaa siirron 1 keskelle; siirto 2 menee keskimmäiseen 3×3-alueeseen, siirto 3 alueeseen 5×5 ja siirto 4 alueeseen 7×7, kunkin asettaa se, jolla on silloin kyseinen väri, ja jokaisen jälkeen toinen pelaaja saa vaihtaa värit. Siirron 4 jälkeen mustilla pelaava joko saa vaihtaa, minkä jälkeen musta asettaa siirron 5 alueeseen 9×9 ja valkoinen saa taas vaihtaa, tai tarjoaa 10 viidettä siirtoa mihin tahansa (ei kahta symmetristä), joista valkoinen valitsee yhden. Sitten valkoinen pelaa siirron 6 mihin tahansa.
rules-opening-soosorv-8 = Avaus (Soosõrv-8): ensimmäinen pelaaja (alustava musta) asettaa siirrot 1–3 (keskelle, 3×3-alueeseen, 5×5-alueeseen: yksi 26 avauksesta); toinen pelaaja saa vaihtaa. Valkoinen asettaa siirron 4 mihin tahansa ja ilmoittaa luvun 1–8; musta saa vaihtaa. Sitten musta tarjoaa niin monta viidettä siirtoa (ei kahta symmetristä), ja valkoinen valitsee niistä yhden ja pelaa siirron 6.
turn-move-area = { $player }, sinun siirtosi ({ $colour }), keskimmäisen { $side }×{ $side }-neliön sisään.
turn-swap = { $player }: vaihdatko värit vai pidätkö omasi?
turn-swap-or-offer = { $player }: vaihdatko värit, pidätkö omasi ja asetat siirron 5 alueeseen 9×9, vai tarjoatko 10 viidettä siirtoa?
turn-declare = { $player }: montako viidettä siirtoa mustan on tarjottava (1–8)?
turn-offer = { $player }, tarjoa mustalle { $count } viidettä siirtoa (ei kahta symmetristä).
turn-select = { $player }, valitse yksi tarjotuista viidensistä siirroista; pelaa sitten siirto 6.
move-swapped = { $player } vaihtoi värit.
move-kept = { $player } piti värinsä.
move-declared = { $player } ilmoitti { $count } { $count ->
    [one] viidennen siirron
   *[other] viidettä siirtoa
}.
move-offered = { $player } tarjosi { $count } { $count ->
    [one] viidennen siirron
   *[other] viidettä siirtoa
}: { $points }.
move-chose-fifth = { $player } valitsi viidenneksi siirroksi { $point }.
choice-game-renju = Renju (mustan kielletyt pisteet)
choice-opening-taraguchi-10 = Taraguchi-10 (Renju)
choice-opening-soosorv-8 = Soosõrv-8 (Renju)
button-renju-swap = Vaihda värit
button-renju-keep = Pidä värini
select-renju-declare = Montako viidettä siirtoa mustan on tarjottava
select-renju-offer = Valitse { $count } tarjottavaa viidettä siirtoa
turn-offer-how = Valitse viidennet siirrot valikosta, tai kirjoita muut komennolla `/siirrä kohta:offer:H8,J9,...`.
err-renju-bad-choice = Valintaa ei voi lukea. Käytä viimeisimmän laudan alla olevia painikkeita ja valikkoja.
