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
rules-server-default = Tämän palvelimen oletuspeli

## Komennot

cmd-challenge = haasta
cmd-challenge-desc = Haasta jäsen (tai kuka tahansa) tai avaa aula 3-4 pelaajalle
cmd-challenge-opponent = vastustaja
cmd-challenge-opponent-desc = Ketä vastaan pelataan; jätä tyhjäksi avointa haastetta varten
cmd-challenge-game = peli
cmd-challenge-game-desc = Peli (oletus: tämän palvelimen)
cmd-challenge-size = koko
cmd-challenge-size-desc = Laudan koko
cmd-challenge-opening = avaus
cmd-challenge-opening-desc = Avaussääntö (vain kaksi pelaajaa)
cmd-challenge-players = pelaajat
cmd-challenge-players-desc = Pelaajien määrä; 3 tai 4 avaa aulan
cmd-challenge-teams = joukkueet
cmd-challenge-teams-desc = Neljä pelaajaa kahdessa joukkueessa (1 ja 3 vastaan 2 ja 4)
cmd-challenge-days_per_move = päiviä_siirtoon
cmd-challenge-days_per_move-desc = Päiviä siirtoa kohden: 1, 2, 3, 5, 7, 10 tai 14; 0 = ei rajaa (oletus: palvelimen)
cmd-challenge-rated = pisteytetty
cmd-challenge-rated-desc = Lasketaanko peli luokitukseen
cmd-challenge-captures = kaappaukset
cmd-challenge-captures-desc = Mitkä ryhmät kaapataan
cmd-challenge-capture_win = kaappausvoitto
cmd-challenge-capture_win-desc = Kaapatut kivet, jotka voittavat (0 = kaappaukset eivät voita)
cmd-challenge-line = rivi
cmd-challenge-line-desc = Rivissä olevat kivet, jotka voittavat
cmd-challenge-overline = ylipitkä
cmd-challenge-overline-desc = Voittaako pidempi rivi
cmd-challenge-self_capture = itsekaappaus
cmd-challenge-self_capture-desc = Mitä saarrokseen asetetuille kiville tapahtuu
cmd-challenge-extra_time_capture = lisäaikakaappaus
cmd-challenge-extra_time_capture-desc = Kaappauksella rikottavan voittorivin on kestettävä yksi siirto
cmd-challenge-mixed_captures = sekakaappaukset
cmd-challenge-mixed_captures-desc = 3-4 pelaajaa: kaapattu pari voi sekoittaa vastustajien värejä
cmd-move = siirrä
cmd-move-desc = Aseta kivi (tai vaihtovalinta: take:1, take:2, place)
cmd-move-at = kohta
cmd-move-at-desc = Piste, esimerkiksi K10 (jätä pois, niin voit valita sen painikkeilla)
cmd-move-game = peli
cmd-move-game-desc = Mikä peli (vain jos sinulla on täällä useita)
cmd-board = lauta
cmd-board-desc = Näytä pelin lauta (vain sinulle)
cmd-board-game = peli
cmd-board-game-desc = Mikä peli (oletus: tämän kanavan)
cmd-games = pelit
cmd-games-desc = Pelisi tällä palvelimella: kenen vuoro, määräajat
cmd-resign = luovuta
cmd-resign-desc = Luovuta peli
cmd-resign-game = peli
cmd-resign-game-desc = Mikä peli (vain jos sinulla on täällä useita)
cmd-rules = säännöt
cmd-rules-desc = Pelin säännöt (tai palvelimen oletuspelin)
cmd-rules-game = peli
cmd-rules-game-desc = Mikä peli (oletus: tämän kanavan)
cmd-prefs = asetukseni
cmd-prefs-desc = Omat asetuksesi: koordinaatit, viimeinen siirto, vahvistus, kieli, ilmoitukset, kielletyt
cmd-prefs-coordinates = koordinaatit
cmd-prefs-coordinates-desc = Näytä koordinaatit laudan ympärillä
cmd-prefs-highlight = korostus
cmd-prefs-highlight-desc = Merkitse viimeinen siirto
cmd-prefs-confirm = vahvistus
cmd-prefs-confirm-desc = Esikatsele jokainen siirto Vahvista / Peru -painikkeilla
cmd-prefs-language = kieli
cmd-prefs-language-desc = Botin kieli sinulle
cmd-prefs-pings = ilmoitukset
cmd-prefs-pings-desc = Miten sinulle kerrotaan vuorostasi
cmd-prefs-forbidden = kielletyt
cmd-prefs-forbidden-desc = Renju: merkitse mustan kielletyt pisteet punaisella ristillä
cmd-settings = palvelinasetukset
cmd-settings-desc = Palvelimen oletukset (vain Palvelimen hallinta -oikeudella)
cmd-settings-game = peli
cmd-settings-game-desc = Uusien haasteiden oletuspeli
cmd-settings-size = koko
cmd-settings-size-desc = Laudan oletuskoko
cmd-settings-opening = avaus
cmd-settings-opening-desc = Oletusavaussääntö
cmd-settings-days_per_move = päiviä_siirtoon
cmd-settings-days_per_move-desc = Oletuspäivät siirtoa kohden: 1, 2, 3, 5, 7, 10 tai 14; 0 = ei rajaa
cmd-settings-threads = ketjut
cmd-settings-threads-desc = Anna jokaiselle pelille oma ketju
cmd-settings-language = kieli
cmd-settings-language-desc = Julkisten viestien kieli
cmd-export = vie
cmd-export-desc = Lataa peli: pente.org-teksti (PGN), SGF, PSQ ja animoitu uusinta
cmd-export-game = peli
cmd-export-game-desc = Mikä peli (oletus: tämän kanavan)
cmd-export-format = muoto
cmd-export-format-desc = Mikä tiedosto (oletus: kaikki)

## Valinnat

choice-game-gomoku = Gomoku (vapaa)
choice-game-gomoku-standard = Gomoku (tavallinen, täsmälleen viisi)
choice-game-pente = Pente
choice-game-keryo = Keryo-Pente (parit ja kolmikot)
choice-size-9x9 = 9×9
choice-size-13x13 = 13×13
choice-size-15x15 = 15×15
choice-size-19x19 = 19×19
choice-opening-none = Vapaa
choice-opening-pro = Pro
choice-opening-long-pro = Pitkä pro
choice-opening-swap = Vaihto
choice-opening-swap2 = Vaihto2
choice-players-2 = 2
choice-players-3 = 3 (aula)
choice-players-4 = 4 (aula)
choice-captures-none = Ei mitään
choice-captures-pairs = Parit
choice-captures-pairs-and-triples = Parit ja kolmikot
choice-line-4 = Neljä
choice-line-5 = Viisi
choice-overline-wins = Pidempi rivi voittaa
choice-overline-no = Täsmälleen rivin pituus
choice-self_capture-none = Turvallinen
choice-self_capture-capture = Kaapataan
choice-self_capture-forbidden = Kielletty
choice-language-auto = Seuraa Discordia
choice-language-en = English
choice-language-es = Español
choice-language-fi = Suomi
choice-pings-mention = Mainitse minut
choice-pings-direct = Mainitse minut ja lähetä yksityisviesti
choice-pings-off = Ei ilmoituksia
choice-format-all = Kaikki tiedostot
choice-format-sgf = SGF
choice-format-gif = Animoitu GIF

## Pelit ja laudat

colour-black = musta
colour-white = valkoinen
colour-red = punainen
colour-blue = sininen
board-move = Siirto
board-to-move = vuorossa
board-move-played = siirto
board-moves-played = siirtoa
board-wins = voittaa
board-draw = Tasapeli
board-pairs = paria
board-stones = kiveä
board-choose-colour = valitsee värin
board-player = Pelaaja
board-too-large = (Laudan kuva on liian suuri liitettäväksi tähän.)
game-title = Peli #{ $id } · { $game }
time-unlimited = Ei aikarajaa
time-days-per-move = { $days ->
    [one] Yksi päivä siirtoa kohden
   *[other] { $days } päivää siirtoa kohden
}
turn-move = { $player }, sinun siirtosi ({ $colour }).
turn-place-opening = { $player }, aseta seuraava avauskivi ({ $colour }).
turn-choose = { $player }, valitse värisi.
turn-choose-or-place = { $player }, valitse värisi tai aseta kaksi kiveä lisää.
turn-extra-time = Lisäaika: voittorivi pysyy, ellei tämä siirto riko sitä kaappauksella.
turn-deadline = Määräaika: { $when }.
result-line = { $winners } { $count ->
    [one] voittaa
   *[other] voittavat
} rivillä!
result-captures = { $winners } { $count ->
    [one] voittaa
   *[other] voittavat
} kaappauksilla!
result-resignation = { $winners } { $count ->
    [one] voittaa
   *[other] voittavat
} luovutuksella.
result-timeout = { $winners } { $count ->
    [one] voittaa
   *[other] voittavat
} ajalla.
result-draw-agreed = Peli päättyi sovittuun tasapeliin.
result-draw = Peli päättyi tasan: lauta on täynnä.
move-played = { $player } pelasi { $point }.
move-played-capturing = { $player } pelasi { $point } ja kaappasi { $stones ->
    [one] yhden kiven
   *[other] { $stones } kiveä
}.
move-took-colour = { $player } valitsi värin: { $colour }.
move-place-two = { $player } asettaa kaksi kiveä lisää ja antaa valinnan takaisin.
moved-elsewhere = Valmis. Peli #{ $id } jatkuu kanavalla { $place }.
confirm-move = Pelataanko { $point } pelissä #{ $id }?
confirm-done = Pelasit { $point } pelissä #{ $id }.
confirm-dropped = Siirto peruttu (peli #{ $id }).
thread-unavailable = (En voinut avata ketjua tälle pelille, joten sitä pelataan täällä.)
dm-your-turn = Sinun siirtosi pelissä #{ $id }: { $place }

## Haasteet

challenge-named = { $challenger } haastaa pelaajan { $opponent } peliin { $game } (haaste #{ $id }).
challenge-open = { $challenger } etsii vastustajaa peliin { $game } (haaste #{ $id }). Kuka tahansa voi hyväksyä.
challenge-lobby = { $challenger } avaa { $players } pelaajan aulan peliin { $game } (aula #{ $id }).
challenge-rated = Pisteytetty peli
challenge-expires = Avoinna { $when } asti.
challenge-status-accepted = Hyväksytty: peli #{ $game } on alkanut.
challenge-status-declined = Hylätty.
challenge-status-cancelled = Peruttu.
challenge-status-expired = Vanhentunut: kukaan ei vastannut ajoissa.
lobby-members = Pelaajat ({ $count }/{ $players }): { $members }
button-accept = Hyväksy
button-decline = Hylkää
button-cancel = Peru
button-join = Liity
button-leave = Poistu
button-take-black = Ota musta
button-take-white = Ota valkoinen
button-place-two = Aseta kaksi lisää
button-confirm = Pelaa { $point }

## /pelit, /asetukseni, /palvelinasetukset, /vie

games-none = Sinulla ei ole käynnissä olevia pelejä tällä palvelimella. Aloita sellainen komennolla /challenge.
games-header = { $count ->
    [one] Pelisi tällä palvelimella:
   *[other] Pelisi tällä palvelimella ({ $count }):
}
games-line = #{ $id } · { $game } vastaan { $opponents } · { $turn } · { $place }
games-your-turn = sinun vuorosi
games-their-turn = vuorossa { $player }
games-waiting = odottaa
value-on = päällä
value-off = pois
prefs-saved = Tallennettu. Asetuksesi:
prefs-current = Asetuksesi:
prefs-coordinates = Koordinaatit: { $value }
prefs-highlight = Viimeisen siirron korostus: { $value }
prefs-confirm = Siirtojen vahvistus: { $value }
prefs-forbidden = Renjun kielletyt pisteet merkitty: { $value }
prefs-language = Kieli: { $value }
prefs-pings = Vuoroilmoitukset: { $value }
settings-saved = Tallennettu. Palvelimen asetukset:
settings-current = Palvelimen asetukset:
settings-game = Oletuspeli: { $value }
settings-time = Oletusaika: { $value }
settings-threads = Oma ketju jokaiselle pelille: { $value }
settings-language = Julkisten viestien kieli: { $value }
export-ready = Peli #{ $id }, valmiina avattavaksi muissa työkaluissa.
export-no-gif = Peli #{ $id }: animoitu uusinta on liian suuri liitettäväksi; tässä pöytäkirjat.

## Virheet (näkyvät vain aiheuttajalle)

err-no-such-game = Tällä palvelimella ei ole sellaista peliä.
err-no-such-challenge = Tällä palvelimella ei ole sellaista haastetta.
err-not-your-turn = Ei ole sinun vuorosi.
err-game-over = Se peli on päättynyt.
err-occupied = { $point } on jo varattu.
err-opening-rule = { $point } rikkoo avaussääntöä: ensimmäinen kivi menee keskelle ja aloittajan toinen kivi vähintään { $distance } pisteen päähän siitä.
err-forbidden-self-capture = { $point } on kielletty: se jättäisi omat kivesi kaapatuiksi.
err-off-board = { $point } ei ole tällä laudalla.
err-bad-choice = Se ei ole yksi vaihtoehdoista.
err-wrong-phase = Se ei sovi nyt: värin valinta ja kiven asettaminen ovat eri asioita.
err-malformed-point = ”{ $text }” ei ole piste. Kirjoita sarakkeen kirjain (A-T ilman I:tä) ja rivin numero, esimerkiksi K10.
err-point-out-of-bounds = { $text } on { $size }×{ $size }-laudan ulkopuolella.
err-position-changed = Peli on edennyt tämän näyttämisen jälkeen; katso lautaa uudelleen.
err-not-a-participant = Et pelaa siinä pelissä.
err-ambiguous = Sinulla on täällä useita pelejä: nimeä yksi näistä: { $games } (valinta peli).
err-no-active-game = Sinulla ei ole käynnissä olevaa peliä tällä kanavalla. Nimeä peli valinnalla peli tai aloita uusi komennolla /challenge.
err-challenge-self = Et voi haastaa itseäsi.
err-challenge-bot = Botit eivät voi pelata.
err-too-many-games = Teillä on jo { $max } peliä käynnissä; pelatkaa ensin yksi loppuun.
err-challenge-expired = Se haaste on vanhentunut.
err-challenge-accepted = Se haaste on jo hyväksytty.
err-challenge-declined = Se haaste hylättiin.
err-challenge-cancelled = Se haaste peruttiin.
err-challenge-closed = Se haaste on suljettu.
err-not-challenged = Tämä haaste ei ole sinulle.
err-not-challenger = Vain haastaja voi tehdä sen.
err-lobby-full = Aula on täynnä.
err-already-joined = Olet jo tässä aulassa.
err-not-joined = Et ole tässä aulassa.
err-opponent-in-lobby = Aula on avoin kaikille: jätä vastustaja pois.
err-bad-time-control = { $days } päivää siirtoa kohden ei käy: valitse 1, 2, 3, 5, 7, 10 tai 14 (tai 0, jos aikarajaa ei haluta).
err-storage-busy = Tietokanta on varattu; mitään ei muutettu. Yritä hetken päästä uudelleen.
err-storage-full = Tietokannan tila loppui; mitään ei muutettu. Kerro palvelimen ylläpitäjälle.
err-storage = Tietokanta epäonnistui; mitään ei muutettu. Yritä myöhemmin uudelleen.
err-rules-teams = Joukkueet vaativat täsmälleen 4 pelaajaa.
err-rules-opening-players = Avaussäännöt ovat vain kahdelle pelaajalle.
err-rules-capture-win-multiplayer = 3 tai 4 pelaajalla kaappausten on voitava voittaa (kaappausvoitto yli 0).
err-rules-capture-win-captures = Kaappausvoitto vaatii kaappaukset: valitse nekin.
err-rules-self-capture-captures = Itsekaappaus vaatii kaappaukset: valitse nekin.
err-rules-extra-time-captures = Lisäaikakaappaus vaatii kaappaukset: valitse nekin.
err-rules-mixed-players = Sekakaappauksilla on merkitystä vain 3 tai 4 pelaajalla.
err-rules-invalid = Nämä säännöt eivät ole mahdollisia: { $detail }
err-unknown-button = Tämä painike ei enää tee mitään.
err-guild-only = Tämä toimii vain palvelimella.
err-manage-server = Vain jäsenet, joilla on Palvelimen hallinta -oikeus, voivat muuttaa tätä.
err-missing-permissions = Minulla ei ole lupaa julkaista kanavalla { $place }. Ylläpitäjä voi antaa minulle siellä oikeudet Näytä kanava, Lähetä viestejä, Liitä tiedostoja ja ketjuoikeudet. Peli itse on tallessa.
err-post-failed = En voinut julkaista lautaa kanavalla { $place }. Peli itse on tallessa.
err-internal = Jotain meni vikaan minun puolellani; mitään tekemääsi ei menetetty.
