## Puntuaciones y registros: /leaderboard, /rating, /history, /replay, exportación PSQ.

cmd-leaderboard = clasificación
cmd-leaderboard-desc = La clasificación de este servidor en un juego, de mejor a peor
cmd-leaderboard-game = juego
cmd-leaderboard-game-desc = Qué juego (por defecto: el juego predeterminado del servidor)
cmd-rating = puntuación
cmd-rating-desc = Las puntuaciones de un miembro (por defecto: las tuyas), aquí y en todos los servidores
cmd-rating-member = miembro
cmd-rating-member-desc = De quién (por defecto: tuyas)
cmd-history = historial
cmd-history-desc = Las últimas partidas de un miembro en este servidor: resultados y cambios de puntuación
cmd-history-member = miembro
cmd-history-member-desc = De quién (por defecto: tuyas)
cmd-replay = repetición
cmd-replay-desc = La repetición animada de una partida, para todo el canal
cmd-replay-game = partida
cmd-replay-game-desc = Qué partida (por defecto: la de este canal)

choice-format-pente = Texto de pente.org (PGN)
choice-format-psq = PSQ (Piskvork, solo Gomoku)

button-previous = Anterior
button-next = Siguiente

leaderboard-title = **{ $game }: clasificación en este servidor** · página { $page } de { $pages }
leaderboard-empty = Nadie ha terminado todavía una partida puntuada de { $game } en este servidor.
leaderboard-line = { $rank }. { $player } · { $rating } · { $games } partidas ({ $wins } ganadas, { $losses } perdidas, { $draws } tablas)

rating-title = Puntuaciones de { $player }
rating-none = { $player } aún no tiene partidas puntuadas.
rating-server = En este servidor
rating-global = En todos los servidores
rating-scope-none = Sin partidas puntuadas.
rating-line = { $game }: { $rating } ±{ $deviation } · { $games } partidas ({ $wins } ganadas, { $losses } perdidas, { $draws } tablas)

history-title = Últimas partidas de { $player }
history-none = { $player } aún no ha terminado ninguna partida en este servidor.
history-line = Partida #{ $id } · { $game } · { $result } ({ $reason }) contra { $opponents } · { $change } · { $when }
history-won = ganada
history-lost = perdida
history-drawn = tablas
history-unrated = sin puntuar
history-by-line = por línea
history-by-captures = por capturas
history-by-board-full = tablero lleno
history-by-resignation = por abandono
history-by-timeout = por tiempo
history-by-agreement = de común acuerdo

replay-ready = La repetición de la partida #{ $id }.
replay-too-large = Partida #{ $id }: la repetición ocupa { $size }, más de los { $limit } que Discord acepta aquí. Los registros son más pequeños: prueba /export.
replay-failed = Partida #{ $id }: no se pudo dibujar la repetición.

export-psq-captures = La partida #{ $id } tiene capturas, que PSQ no puede registrar: elige el formato de pente.org o SGF.
export-psq-players = La partida #{ $id } tiene { $players } jugadores; PSQ solo registra partidas de dos.
