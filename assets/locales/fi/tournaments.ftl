# Turnaukset (issue 15): /turnaus ja sen alikomennot, ilmoitukset, kierrokset, sarjataulukko.

cmd-tournament = turnaus
cmd-tournament-desc = Turnaukset tällä palvelimella: kaikki kaikkia vastaan tai sveitsiläinen, pelataan päivien mittaan
cmd-tournament-create = luo
cmd-tournament-create-desc = Luo turnaus; jäsenet liittyvät sen painikkeella
cmd-tournament-create-name = nimi
cmd-tournament-create-name-desc = Turnauksen nimi
cmd-tournament-create-format = muoto
cmd-tournament-create-format-desc = Kaikki kaikkia vastaan tai sveitsiläinen järjestelmä
cmd-tournament-create-game = peli
cmd-tournament-create-game-desc = Peli (oletus: tämän palvelimen)
cmd-tournament-create-size = koko
cmd-tournament-create-size-desc = Laudan koko
cmd-tournament-create-opening = avaus
cmd-tournament-create-opening-desc = Avaussääntö
cmd-tournament-create-days_per_move = päiviä_siirtoon
cmd-tournament-create-days_per_move-desc = Päiviä siirtoa kohden: 1, 2, 3, 5, 7, 10 tai 14; 0 = ei rajaa (oletus: palvelimen)
cmd-tournament-create-minutes_per_move = minuutteja_siirtoon
cmd-tournament-create-minutes_per_move-desc = Live-pelit: minuutteja siirtoa kohden, 1, 2, 5, 10, 30 tai 60 (päivien sijaan)
cmd-tournament-create-rated = pisteytetty
cmd-tournament-create-rated-desc = Lasketaanko pelit luokitukseen (oletus: kyllä)
cmd-tournament-create-max_players = enintään_pelaajia
cmd-tournament-create-max_players-desc = Pelaajia enintään (kaikki kaikkia vastaan 3-32, oletus 16; sveitsiläinen 3-256, oletus 64)
cmd-tournament-create-rounds = kierrokset
cmd-tournament-create-rounds-desc = Vain sveitsiläinen: kierrokset (oletus: log2(pelaajat) ylöspäin pyöristettynä)
cmd-tournament-create-games_per_pairing = pelejä_parille
cmd-tournament-create-games_per_pairing-desc = Vain kaikki kaikkia vastaan: 1 tai 2 (kumpikin pelaa kerran kummallakin värillä)
cmd-tournament-create-players = pelaajat
cmd-tournament-create-players-desc = Pelaajia peliä kohden (turnauspelit ovat kaksinpelejä)
cmd-tournament-create-teams = joukkueet
cmd-tournament-create-teams-desc = Joukkueet (vain nelinpeleissä, siis ei turnauksissa)
cmd-tournament-create-captures = kaappaukset
cmd-tournament-create-captures-desc = Mitkä ryhmät kaapataan
cmd-tournament-create-capture_win = kaappausvoitto
cmd-tournament-create-capture_win-desc = Kaapatut kivet, jotka voittavat (0 = kaappaukset eivät voita)
cmd-tournament-create-line = rivi
cmd-tournament-create-line-desc = Rivissä olevat kivet, jotka voittavat
cmd-tournament-create-overline = ylipitkä
cmd-tournament-create-overline-desc = Voittaako pidempi rivi
cmd-tournament-create-self_capture = itsekaappaus
cmd-tournament-create-self_capture-desc = Mitä saarrokseen asetetuille kiville tapahtuu
cmd-tournament-create-extra_time_capture = lisäaikakaappaus
cmd-tournament-create-extra_time_capture-desc = Kaappauksella rikottavan voittorivin on kestettävä yksi siirto
cmd-tournament-create-mixed_captures = sekakaappaukset
cmd-tournament-create-mixed_captures-desc = 3-4 pelaajaa: kaapattu pari voi sekoittaa vastustajien värejä
cmd-tournament-join = liity
cmd-tournament-join-desc = Liity turnaukseen, joka on vielä avoinna
cmd-tournament-join-tournament = turnaus
cmd-tournament-join-tournament-desc = Mikä turnaus (oletus: ainoa täällä avoinna oleva)
cmd-tournament-leave = poistu
cmd-tournament-leave-desc = Poistu turnauksesta; alun jälkeen vetäydyt ja luovutat käynnissä olevan pelisi
cmd-tournament-leave-tournament = turnaus
cmd-tournament-leave-tournament-desc = Mikä turnaus (oletus: ainoa täällä oleva)
cmd-tournament-start = aloita
cmd-tournament-start-desc = Sulje ilmoittautuminen ja aloita kierros 1 (luoja tai palvelimen ylläpitäjä)
cmd-tournament-start-tournament = turnaus
cmd-tournament-start-tournament-desc = Mikä turnaus (oletus: ainoa täällä avoinna oleva)
cmd-tournament-cancel = peru
cmd-tournament-cancel-desc = Peru turnaus ennen sen alkua (luoja tai palvelimen ylläpitäjä)
cmd-tournament-cancel-tournament = turnaus
cmd-tournament-cancel-tournament-desc = Mikä turnaus (oletus: ainoa täällä avoinna oleva)
cmd-tournament-standings = tilanne
cmd-tournament-standings-desc = Sarjataulukko kuvana ja tekstinä (vain sinulle)
cmd-tournament-standings-tournament = turnaus
cmd-tournament-standings-tournament-desc = Mikä turnaus (oletus: ainoa täällä oleva)
cmd-tournament-list = lista
cmd-tournament-list-desc = Tämän palvelimen turnaukset (vain sinulle)

choice-format-round-robin = Kaikki kaikkia vastaan
choice-format-swiss = Sveitsiläinen

tournament-format-round-robin = { $games ->
    [2] kaksinkertainen kaikki kaikkia vastaan
   *[other] kaikki kaikkia vastaan
}
tournament-format-swiss = sveitsiläinen, { $rounds ->
    [one] yksi kierros
   *[other] { $rounds } kierrosta
}
tournament-format-swiss-default = sveitsiläinen, kierrokset päätetään alussa
tournament-state-open = ilmoittautuminen auki
tournament-state-running = käynnissä
tournament-state-finished = päättynyt
tournament-state-cancelled = peruttu
tournament-title = 🏆 **{ $name }** (#{ $id }) · { $format } · { $game }
tournament-swap-note = Swap-avaus: ensin mainittu pelaaja asettaa avauskivet ja värit valitaan pelissä, ei parituksessa.
tournament-no-players = Ei vielä pelaajia.
tournament-players = Pelaajat ({ $count }/{ $max }): { $players }
tournament-open-hint = Liity painikkeella tai komennolla `/turnaus liity`. { $creator } (tai jäsen, jolla on Palvelimen hallinta -oikeus) aloittaa sen komennolla `/turnaus aloita`, kun vähintään { $min } on liittynyt.
tournament-running = Käynnissä: kierros { $round }/{ $total }.
tournament-finished = Päättynyt. { $count ->
    [one] Voittaja: { $winners }
   *[other] Voittajat: { $winners }
}
tournament-cancelled = Peruttu.
tournament-cancelled-by-you = **{ $name }** on peruttu.
tournament-joined = Liityit turnaukseen **{ $name }**.
tournament-left = Poistuit turnauksesta **{ $name }**.
tournament-withdrew = Vetäydyit turnauksesta **{ $name }**; sinua ei enää pariteta.
tournament-withdrew-resigned = Vetäydyit turnauksesta **{ $name }** ja luovutit pelin #{ $game }; sinua ei enää pariteta.
tournament-started = **{ $name }** alkoi, { $players } pelaajaa: { $total ->
    [one] yksi kierros
   *[other] { $total } kierrosta
}. Kierroksen 1 pelit avautuvat omiin ketjuihinsa.
tournament-round-title = **{ $name }** · kierros { $round }/{ $total }
tournament-game-lead = **{ $name }** · kierros { $round }, pöytä { $board }
tournament-board-line = Pöytä { $board }: { $first } vastaan { $second } · peli #{ $game } { $place }
tournament-bye-line = Vapaakierros: { $player } (yksi piste)
tournament-forfeit-line = Pöytä { $board }: { $first } vastaan { $second } · ei peliä, { $winner } voittaa luovutuksella
tournament-standings-heading = **{ $name }** (#{ $id }) · { $status } · { $round }/{ $total } kierrosta pelattu
tournament-standing-line = { $rank }. { $player } · { $points } ({ $tiebreak }) · { $games } peliä
tournament-tiebreak-swiss = Buchholz { $bh }, SB { $sb }
tournament-tiebreak-rr = SB { $sb }
tournament-more-players = …ja { $count } muuta.
tournament-withdrawn = vetäytynyt
tournament-final-title = **{ $name }** päättyi { $rounds } kierroksen jälkeen.
tournament-winners = { $count ->
    [one] 🏆 Voittaja: { $winners }
   *[other] 🏆 Voittajat (jaettu ensimmäinen sija): { $winners }
}
tournament-all-games = Kaikki pelit:
tournament-round-games = Kierros { $round }: { $games }
tournament-list-empty = Tällä palvelimella ei ole vielä turnauksia. Luo sellainen komennolla `/turnaus luo`.
tournament-list-line = #{ $id } **{ $name }** · { $status } · { $count } pelaajaa

tournament-table-final = Lopputulokset
tournament-table-open = Ilmoittautuminen auki
tournament-table-round = Kierroksen { $round }/{ $total } jälkeen
tournament-col-rank = #
tournament-col-player = Pelaaja
tournament-col-points = Pisteet
tournament-col-buchholz = Buchholz
tournament-col-sb = SB
tournament-col-games = Pelit

tournament-err-unknown = Tällä palvelimella ei ole turnausta sillä numerolla.
tournament-err-none-here = Tällä palvelimella ei ole avointa tai käynnissä olevaa turnausta. Luo sellainen komennolla `/turnaus luo`.
tournament-err-ambiguous = Tällä palvelimella on useita turnauksia: nimeä jokin näistä: { $list }.
tournament-err-name = Anna turnaukselle 1-{ $max } merkin nimi.
tournament-err-max-players = enintään_pelaajia on oltava { $min }-{ $max } tässä muodossa.
tournament-err-rounds-round-robin = Kaikki kaikkia vastaan pelaa kaikki parit, joten kierrokset määräytyvät pelaajista: jätä `kierrokset` pois.
tournament-err-games-swiss = pelejä_parille koskee vain kaikki kaikkia vastaan -turnausta; sveitsiläinen ei toista paria, jos sen voi välttää.
tournament-err-rounds = Kierroksia on oltava 1-{ $max }.
tournament-err-games = pelejä_parille on oltava 1 tai 2.
tournament-err-multiplayer = Turnauspelit ovat kaksinpelejä: 3-4 pelaajan sääntöjä ei voi käyttää.
tournament-err-bot = Bottitilit eivät voi osallistua turnauksiin.
tournament-err-already-joined = Olet jo tässä turnauksessa.
tournament-err-full = Tämä turnaus on täynnä.
tournament-err-started = Tämä turnaus on jo alkanut.
tournament-err-finished = Tämä turnaus on päättynyt.
tournament-err-cancelled = Tämä turnaus peruttiin.
tournament-err-open = Tämä turnaus ei ole vielä alkanut.
tournament-err-not-joined = Et ole tässä turnauksessa.
tournament-err-withdrawn = Olet jo vetäytynyt tästä turnauksesta.
tournament-err-not-creator = Vain turnauksen luoja tai jäsen, jolla on Palvelimen hallinta -oikeus, voi tehdä sen.
tournament-err-too-few = Turnaus tarvitsee vähintään { $min } pelaajaa; tähän mennessä on liittynyt { $have }.
tournament-err-too-many-rounds = { $asked } kierrosta on liikaa { $players } pelaajalle: enintään { $max } ilman uusintapareja. Peru turnaus ja luo se uudelleen vähemmillä kierroksilla.
tournament-err-changed = Turnaus muuttui juuri sillä hetkellä; yritä uudelleen.
