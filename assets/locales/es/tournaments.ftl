# Torneos (issue 15): /torneo y sus subcomandos, anuncios, rondas, clasificación.

cmd-tournament = torneo
cmd-tournament-desc = Torneos en este servidor: todos contra todos o suizo, jugados durante días
cmd-tournament-create = crear
cmd-tournament-create-desc = Crea un torneo; los miembros se apuntan con su botón
cmd-tournament-create-name = nombre
cmd-tournament-create-name-desc = El nombre del torneo
cmd-tournament-create-format = formato
cmd-tournament-create-format-desc = Todos contra todos o sistema suizo
cmd-tournament-create-game = juego
cmd-tournament-create-game-desc = El juego (por defecto: el de este servidor)
cmd-tournament-create-size = tamaño
cmd-tournament-create-size-desc = Tamaño del tablero
cmd-tournament-create-opening = apertura
cmd-tournament-create-opening-desc = Regla de apertura
cmd-tournament-create-days_per_move = días_por_jugada
cmd-tournament-create-days_per_move-desc = Días por jugada: 1, 2, 3, 5, 7, 10 o 14; 0 = sin límite (por defecto: el del servidor)
cmd-tournament-create-minutes_per_move = minutos_por_jugada
cmd-tournament-create-minutes_per_move-desc = Partidas en vivo: minutos por jugada, 1, 2, 5, 10, 30 o 60 (en vez de días)
cmd-tournament-create-rated = puntuado
cmd-tournament-create-rated-desc = Si las partidas cuentan para la clasificación (por defecto: sí)
cmd-tournament-create-max_players = máximo_jugadores
cmd-tournament-create-max_players-desc = Máximo de jugadores (todos contra todos 3-32, por defecto 16; suizo 3-256, por defecto 64)
cmd-tournament-create-rounds = rondas
cmd-tournament-create-rounds-desc = Solo suizo: rondas (por defecto: techo de log2(jugadores))
cmd-tournament-create-games_per_pairing = partidas_por_pareja
cmd-tournament-create-games_per_pairing-desc = Solo todos contra todos: 1, o 2 (cada pareja juega una vez con cada color)
cmd-tournament-create-players = jugadores
cmd-tournament-create-players-desc = Jugadores por partida (las de torneo son de dos)
cmd-tournament-create-teams = equipos
cmd-tournament-create-teams-desc = Equipos (solo partidas de cuatro, así que no en torneos)
cmd-tournament-create-captures = capturas
cmd-tournament-create-captures-desc = Qué grupos se capturan
cmd-tournament-create-capture_win = victoria_por_capturas
cmd-tournament-create-capture_win-desc = Piedras capturadas que ganan (0 = las capturas no ganan)
cmd-tournament-create-line = línea
cmd-tournament-create-line-desc = Piedras en línea que ganan
cmd-tournament-create-overline = sobrelínea
cmd-tournament-create-overline-desc = Si una línea más larga gana
cmd-tournament-create-self_capture = autocaptura
cmd-tournament-create-self_capture-desc = Qué pasa con las piedras colocadas dentro de una horquilla
cmd-tournament-create-extra_time_capture = captura_tiempo_extra
cmd-tournament-create-extra_time_capture-desc = Una línea ganadora que se puede romper con una captura debe sobrevivir una jugada
cmd-tournament-create-mixed_captures = capturas_mixtas
cmd-tournament-create-mixed_captures-desc = Con 3-4 jugadores: las parejas capturadas pueden mezclar colores rivales
cmd-tournament-join = apuntarse
cmd-tournament-join-desc = Apúntate a un torneo que sigue abierto
cmd-tournament-join-tournament = torneo
cmd-tournament-join-tournament-desc = Qué torneo (por defecto: el único abierto aquí)
cmd-tournament-leave = salir
cmd-tournament-leave-desc = Sal de un torneo; tras el inicio te retiras y abandonas tu partida en curso
cmd-tournament-leave-tournament = torneo
cmd-tournament-leave-tournament-desc = Qué torneo (por defecto: el único de aquí)
cmd-tournament-start = empezar
cmd-tournament-start-desc = Cierra las inscripciones y empieza la ronda 1 (el creador o un gestor del servidor)
cmd-tournament-start-tournament = torneo
cmd-tournament-start-tournament-desc = Qué torneo (por defecto: el único abierto aquí)
cmd-tournament-cancel = cancelar
cmd-tournament-cancel-desc = Anula un torneo antes de su inicio (el creador o un gestor del servidor)
cmd-tournament-cancel-tournament = torneo
cmd-tournament-cancel-tournament-desc = Qué torneo (por defecto: el único abierto aquí)
cmd-tournament-standings = clasificación
cmd-tournament-standings-desc = La clasificación, en imagen y texto (solo para ti)
cmd-tournament-standings-tournament = torneo
cmd-tournament-standings-tournament-desc = Qué torneo (por defecto: el único de aquí)
cmd-tournament-list = lista
cmd-tournament-list-desc = Los torneos de este servidor (solo para ti)

choice-format-round-robin = Todos contra todos
choice-format-swiss = Suizo

tournament-format-round-robin = { $games ->
    [2] todos contra todos a doble vuelta
   *[other] todos contra todos
}
tournament-format-swiss = suizo, { $rounds ->
    [one] una ronda
   *[other] { $rounds } rondas
}
tournament-format-swiss-default = suizo, rondas fijadas al empezar
tournament-state-open = inscripciones abiertas
tournament-state-running = en juego
tournament-state-finished = terminado
tournament-state-cancelled = cancelado
tournament-title = 🏆 **{ $name }** (#{ $id }) · { $format } · { $game }
tournament-swap-note = Apertura swap: el primer jugador nombrado coloca las piedras de apertura y los colores se eligen en la partida, no en el emparejamiento.
tournament-no-players = Aún no hay jugadores.
tournament-players = Jugadores ({ $count }/{ $max }): { $players }
tournament-open-hint = Apúntate con el botón o con `/torneo apuntarse`. { $creator } (o un miembro con Gestionar servidor) lo empieza con `/torneo empezar` cuando haya al menos { $min }.
tournament-running = En juego: ronda { $round } de { $total }.
tournament-finished = Terminado. { $count ->
    [one] Ganador: { $winners }
   *[other] Ganadores: { $winners }
}
tournament-cancelled = Cancelado.
tournament-cancelled-by-you = **{ $name }** queda cancelado.
tournament-joined = Te has apuntado a **{ $name }**.
tournament-left = Has salido de **{ $name }**.
tournament-withdrew = Te has retirado de **{ $name }**; no volverás a ser emparejado.
tournament-withdrew-resigned = Te has retirado de **{ $name }** y has abandonado la partida #{ $game }; no volverás a ser emparejado.
tournament-started = **{ $name }** ha empezado con { $players } jugadores: { $total ->
    [one] una ronda
   *[other] { $total } rondas
}. Las partidas de la ronda 1 se abren en sus hilos.
tournament-round-title = **{ $name }** · ronda { $round } de { $total }
tournament-game-lead = **{ $name }** · ronda { $round }, mesa { $board }
tournament-board-line = Mesa { $board }: { $first } contra { $second } · partida #{ $game } { $place }
tournament-bye-line = Descansa: { $player } (un punto)
tournament-forfeit-line = Mesa { $board }: { $first } contra { $second } · sin partida, { $winner } gana por incomparecencia
tournament-standings-heading = **{ $name }** (#{ $id }) · { $status } · { $round } de { $total } rondas jugadas
tournament-standing-line = { $rank }. { $player } · { $points } ({ $tiebreak }) · { $games } partidas
tournament-tiebreak-swiss = Buchholz { $bh }, SB { $sb }
tournament-tiebreak-rr = SB { $sb }
tournament-more-players = …y { $count } más.
tournament-withdrawn = retirado
tournament-final-title = **{ $name }** ha terminado tras { $rounds } rondas.
tournament-winners = { $count ->
    [one] 🏆 Ganador: { $winners }
   *[other] 🏆 Ganadores (primer puesto compartido): { $winners }
}
tournament-all-games = Todas las partidas:
tournament-round-games = Ronda { $round }: { $games }
tournament-list-empty = Aún no hay torneos en este servidor. Crea uno con `/torneo crear`.
tournament-list-line = #{ $id } **{ $name }** · { $status } · { $count } jugadores

tournament-table-final = Clasificación final
tournament-table-open = Inscripciones abiertas
tournament-table-round = Tras la ronda { $round } de { $total }
tournament-col-rank = #
tournament-col-player = Jugador
tournament-col-points = Puntos
tournament-col-buchholz = Buchholz
tournament-col-sb = SB
tournament-col-games = Partidas

tournament-err-unknown = No hay ningún torneo con ese número en este servidor.
tournament-err-none-here = No hay ningún torneo abierto o en juego en este servidor. Crea uno con `/torneo crear`.
tournament-err-ambiguous = Hay varios torneos en este servidor: indica uno de { $list }.
tournament-err-name = Dale al torneo un nombre de 1 a { $max } caracteres.
tournament-err-max-players = máximo_jugadores debe estar entre { $min } y { $max } para este formato.
tournament-err-rounds-round-robin = En todos contra todos se juegan todas las parejas, así que sus rondas salen de los jugadores: no indiques `rondas`.
tournament-err-games-swiss = partidas_por_pareja es para todos contra todos; el suizo nunca repite una pareja si puede evitarlo.
tournament-err-rounds = rondas debe estar entre 1 y { $max }.
tournament-err-games = partidas_por_pareja debe ser 1 o 2.
tournament-err-multiplayer = Las partidas de torneo son entre dos jugadores: no se pueden usar reglas de 3-4 jugadores.
tournament-err-bot = Las cuentas de bot no pueden participar en torneos.
tournament-err-already-joined = Ya estás en este torneo.
tournament-err-full = Este torneo está completo.
tournament-err-started = Este torneo ya ha empezado.
tournament-err-finished = Este torneo ha terminado.
tournament-err-cancelled = Este torneo fue cancelado.
tournament-err-open = Este torneo aún no ha empezado.
tournament-err-not-joined = No estás en este torneo.
tournament-err-withdrawn = Ya te has retirado de este torneo.
tournament-err-not-creator = Solo el creador del torneo o un miembro con Gestionar servidor puede hacer eso.
tournament-err-too-few = Un torneo necesita al menos { $min } jugadores; de momento se han apuntado { $have }.
tournament-err-too-many-rounds = { $asked } rondas son demasiadas para { $players } jugadores: como mucho { $max } sin repetir parejas. Cancélalo y créalo de nuevo con menos rondas.
tournament-err-changed = El torneo cambió en ese mismo momento; inténtalo de nuevo.
