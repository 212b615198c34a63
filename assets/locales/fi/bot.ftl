## Säännöt sanoin (/rules, haasteviestit)

preset-gomoku = Gomoku (vapaa)
preset-gomoku-standard = Gomoku (tavallinen)
preset-pente = Pente
preset-keryo = Keryo-Pente
rules-title = { $game } { $size }×{ $size }-laudalla, { $players } pelaajaa
rules-teams = Kaksi joukkuetta: värit 1 ja 3 vastaan 2 ja 4.
rules-turns = Pelaajat asettavat vuorotellen yhden kiven tyhjään pisteeseen; musta aloittaa.
rules-line-or-more = Voitto: { $line } tai useampi kivi katkeamattomassa rivissä (vaaka, pysty tai vino).
rules-line-exact = Voitto: täsmälleen { $line } kiveä rivissä; pidempi rivi ei voita.
rules-no-captures = Ei kaappauksia: kivet pysyvät paikallaan.
rules-captures-pairs = Kaappaus: saarra täsmälleen kaksi vastustajan kiveä kahden omasi väliin poistaaksesi ne.
rules-captures-triples = Kaappaus: saarra täsmälleen kaksi tai täsmälleen kolme vastustajan kiveä kahden omasi väliin poistaaksesi ne.
rules-self-none = Kiven asettaminen saarrettuun aukkoon on turvallista.
rules-self-capture = Omien kivien asettaminen saarroksiin poistaa ne, ja ne lasketaan saartajalle.
rules-self-forbidden = Et saa asettaa kiveä, joka täydentää oman saarretun ryhmäsi.
rules-mixed-on = Saarretut kivet voivat kuulua eri vastustajille.
rules-mixed-off = Saarrettujen kivien on kuuluttava samalle vastustajalle.
rules-capture-win = Voitto: kaappaa { $stones } kiveä.
rules-capture-win-teams = Voitto: kaappaa joukkueena { $stones } kiveä (joukkuetoverin kivet eivät tuo pisteitä).
rules-capture-win-off = Kaappaukset eivät voita peliä.
rules-extra-time = Lisäajan kaappaus: voittorivi, jonka seuraava pelaaja voi rikkoa kaappauksella, voittaa vain, jos se kestää hänen siirtonsa.
rules-opening-none = Avaus: vapaa.
rules-opening-pro = Avaus (pro): mustan ensimmäinen kivi keskipisteeseen, mustan toinen kivi vähintään { $distance } pisteen päähän keskeltä.
rules-opening-swap = Avaus (vaihto): ensimmäinen pelaaja asettaa kaksi mustaa ja kaksi valkoista kiveä, ja toinen pelaaja valitsee värin.
rules-opening-swap2 = Avaus (vaihto2): ensimmäinen pelaaja asettaa kolme kiveä; toinen pelaaja ottaa mustat, ottaa valkoiset ja asettaa kiven, tai asettaa kaksi lisää ja antaa ensimmäisen valita.
rules-draw = Jos lauta täyttyy ilman voittajaa, peli päättyy tasan.
