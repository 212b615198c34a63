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
