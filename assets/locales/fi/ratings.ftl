## Vahvuusluvut ja pöytäkirjat: /leaderboard, /rating, /history, /replay, PSQ-vienti.

cmd-leaderboard = tulostaulu
cmd-leaderboard-desc = Tämän palvelimen paremmuusjärjestys pelissä, paras ensin
cmd-leaderboard-game = peli
cmd-leaderboard-game-desc = Mikä peli (oletus: palvelimen oletuspeli)
cmd-rating = vahvuusluku
cmd-rating-desc = Jäsenen vahvuusluvut (oletus: sinun) tällä ja kaikilla palvelimilla
cmd-rating-member = jäsen
cmd-rating-member-desc = Kenen (oletus: sinun)
cmd-history = historia
cmd-history-desc = Jäsenen viimeisimmät pelit tällä palvelimella: tulokset ja vahvuuslukujen muutokset
cmd-history-member = jäsen
cmd-history-member-desc = Kenen pelit (oletus: sinun)
cmd-replay = uusinta
cmd-replay-desc = Pelin animoitu uusinta koko kanavalle
cmd-replay-game = peli
cmd-replay-game-desc = Mikä peli (oletus: tämän kanavan)

choice-format-pente = pente.org-teksti (PGN)
choice-format-psq = PSQ (Piskvork, vain Gomoku)

button-previous = Edellinen
button-next = Seuraava

leaderboard-title = **{ $game }: tämän palvelimen tulostaulu** · sivu { $page }/{ $pages }
leaderboard-empty = Kukaan ei ole vielä pelannut loppuun pisteytettyä peliä ({ $game }) tällä palvelimella.
leaderboard-line = { $rank }. { $player } · { $rating } · { $games } peliä ({ $wins } voittoa, { $losses } tappiota, { $draws } tasapeliä)

rating-title = Pelaajan { $player } vahvuusluvut
rating-none = Pelaajalla { $player } ei ole vielä pisteytettyjä pelejä.
rating-server = Tällä palvelimella
rating-global = Kaikilla palvelimilla
rating-scope-none = Ei pisteytettyjä pelejä.
rating-line = { $game }: { $rating } ±{ $deviation } · { $games } peliä ({ $wins } voittoa, { $losses } tappiota, { $draws } tasapeliä)

history-title = Pelaajan { $player } viimeisimmät pelit
history-none = Pelaajalla { $player } ei ole vielä päättyneitä pelejä tällä palvelimella.
history-line = Peli #{ $id } · { $game } · { $result } ({ $reason }), vastassa { $opponents } · { $change } · { $when }
history-won = voitto
history-lost = tappio
history-drawn = tasapeli
history-unrated = ei pisteytetty
history-by-line = rivi
history-by-captures = kaappaukset
history-by-board-full = täysi lauta
history-by-resignation = luovutus
history-by-timeout = aika loppui
history-by-agreement = sovittu

replay-ready = Pelin #{ $id } uusinta.
replay-too-large = Peli #{ $id }: uusinta on { $size }, enemmän kuin Discordin täällä hyväksymät { $limit }. Pöytäkirjat ovat pienempiä: kokeile /export.
replay-failed = Peli #{ $id }: uusintaa ei voitu piirtää.

export-psq-captures = Pelissä #{ $id } on kaappauksia, joita PSQ ei pysty tallentamaan: valitse pente.org- tai SGF-muoto.
export-psq-players = Pelissä #{ $id } on { $players } pelaajaa; PSQ tallentaa vain kahden pelaajan pelejä.
