## Reglas en palabras (/rules, mensajes de desafío)

preset-gomoku = Gomoku (libre)
preset-gomoku-standard = Gomoku (estándar)
preset-pente = Pente
preset-keryo = Keryo-Pente
rules-title = { $game } en un tablero de { $size }×{ $size }, { $players } jugadores
rules-teams = Dos equipos: los colores 1 y 3 contra 2 y 4.
rules-turns = Los jugadores se turnan para colocar una piedra en un punto vacío; las negras empiezan.
rules-line-or-more = Victoria: { $line } o más piedras en una línea continua (horizontal, vertical o diagonal).
rules-line-exact = Victoria: exactamente { $line } piedras en línea; una línea más larga no gana.
rules-no-captures = Sin capturas: las piedras se quedan donde se colocan.
rules-captures-pairs = Captura: encierra exactamente dos piedras rivales entre dos tuyas para retirarlas.
rules-captures-triples = Captura: encierra exactamente dos o exactamente tres piedras rivales entre dos tuyas para retirarlas.
rules-self-none = Colocar una piedra dentro de una horquilla es seguro.
rules-self-capture = Colocar tus piedras dentro de una horquilla las retira, y cuentan para quien las encierra.
rules-self-forbidden = No puedes colocar una piedra que complete un grupo tuyo encerrado.
rules-mixed-on = Las piedras encerradas pueden ser de rivales distintos.
rules-mixed-off = Las piedras encerradas deben ser todas del mismo rival.
rules-capture-win = Victoria: captura { $stones } piedras.
rules-capture-win-teams = Victoria: captura { $stones } piedras en equipo (las piedras del compañero no puntúan).
rules-capture-win-off = Las capturas no ganan la partida.
rules-extra-time = Captura de tiempo extra: una línea ganadora que el siguiente jugador puede romper con una captura solo gana si sobrevive a su jugada.
rules-opening-none = Apertura: libre.
rules-opening-pro = Apertura (pro): la primera piedra negra en el centro, la segunda piedra negra al menos a { $distance } puntos del centro.
rules-opening-swap = Apertura (intercambio): el primer jugador coloca dos piedras negras y dos blancas, y el segundo jugador elige color.
rules-opening-swap2 = Apertura (intercambio2): el primer jugador coloca tres piedras; el segundo jugador elige negras, elige blancas y coloca una piedra, o coloca dos más y deja elegir al primero.
rules-draw = Si el tablero se llena sin ganador, la partida es empate.
rules-server-default = El juego predeterminado de este servidor

## Comandos

cmd-challenge = desafiar
cmd-challenge-desc = Desafía a un miembro (o a cualquiera), o abre una sala para 3-4 jugadores
cmd-challenge-opponent = rival
cmd-challenge-opponent-desc = Contra quién jugar; déjalo vacío para un desafío abierto
cmd-challenge-game = juego
cmd-challenge-game-desc = El juego (por defecto: el de este servidor)
cmd-challenge-size = tamaño
cmd-challenge-size-desc = Tamaño del tablero
cmd-challenge-opening = apertura
cmd-challenge-opening-desc = Regla de apertura (solo dos jugadores)
cmd-challenge-players = jugadores
cmd-challenge-players-desc = Número de jugadores; 3 o 4 abre una sala
cmd-challenge-teams = equipos
cmd-challenge-teams-desc = Cuatro jugadores en dos equipos (1 y 3 contra 2 y 4)
cmd-challenge-days_per_move = días_por_jugada
cmd-challenge-days_per_move-desc = Días por jugada: 1, 2, 3, 5, 7, 10 o 14; 0 = sin límite (por defecto: el del servidor)
cmd-challenge-rated = puntuada
cmd-challenge-rated-desc = Si la partida cuenta para la clasificación
cmd-challenge-captures = capturas
cmd-challenge-captures-desc = Qué grupos se capturan
cmd-challenge-capture_win = victoria_por_capturas
cmd-challenge-capture_win-desc = Piedras capturadas que ganan (0 = las capturas no ganan)
cmd-challenge-line = línea
cmd-challenge-line-desc = Piedras en línea que ganan
cmd-challenge-overline = sobrelínea
cmd-challenge-overline-desc = Si una línea más larga gana
cmd-challenge-self_capture = autocaptura
cmd-challenge-self_capture-desc = Qué pasa con las piedras colocadas dentro de una horquilla
cmd-challenge-extra_time_capture = captura_tiempo_extra
cmd-challenge-extra_time_capture-desc = Una línea ganadora que se puede romper con una captura debe sobrevivir una jugada
cmd-challenge-mixed_captures = capturas_mixtas
cmd-challenge-mixed_captures-desc = Con 3-4 jugadores: las parejas capturadas pueden mezclar colores rivales
cmd-move = jugar
cmd-move-desc = Coloca una piedra (o una elección de intercambio: take:1, take:2, place)
cmd-move-at = punto
cmd-move-at-desc = El punto, como K10 (omítelo para elegirlo con botones)
cmd-move-game = partida
cmd-move-game-desc = Qué partida (solo si tienes varias aquí)
cmd-board = tablero
cmd-board-desc = Muestra el tablero de una partida (solo a ti)
cmd-board-game = partida
cmd-board-game-desc = Qué partida (por defecto: la de este canal)
cmd-games = partidas
cmd-games-desc = Tus partidas en este servidor: a quién le toca, plazos
cmd-resign = rendirse
cmd-resign-desc = Abandona una partida
cmd-resign-game = partida
cmd-resign-game-desc = Qué partida (solo si tienes varias aquí)
cmd-rules = reglas
cmd-rules-desc = Las reglas de una partida (o del juego predeterminado del servidor)
cmd-rules-game = partida
cmd-rules-game-desc = Qué partida (por defecto: la de este canal)
cmd-prefs = preferencias
cmd-prefs-desc = Tus preferencias: coordenadas, última jugada, confirmación, idioma, avisos, prohibidos
cmd-prefs-coordinates = coordenadas
cmd-prefs-coordinates-desc = Mostrar las coordenadas alrededor del tablero
cmd-prefs-highlight = resaltar
cmd-prefs-highlight-desc = Marcar la última jugada
cmd-prefs-confirm = confirmar
cmd-prefs-confirm-desc = Previsualizar cada jugada con botones Confirmar / Cancelar
cmd-prefs-language = idioma
cmd-prefs-language-desc = El idioma del bot para ti
cmd-prefs-pings = avisos
cmd-prefs-pings-desc = Cómo avisarte de que te toca
cmd-prefs-forbidden = prohibidos
cmd-prefs-forbidden-desc = Renju: marcar con una cruz roja los puntos prohibidos de las negras
cmd-settings = ajustes
cmd-settings-desc = Valores por defecto del servidor (solo con Gestionar servidor)
cmd-settings-game = juego
cmd-settings-game-desc = Juego por defecto de los nuevos desafíos
cmd-settings-size = tamaño
cmd-settings-size-desc = Tamaño de tablero por defecto
cmd-settings-opening = apertura
cmd-settings-opening-desc = Regla de apertura por defecto
cmd-settings-days_per_move = días_por_jugada
cmd-settings-days_per_move-desc = Días por jugada por defecto: 1, 2, 3, 5, 7, 10 o 14; 0 = sin límite
cmd-settings-threads = hilos
cmd-settings-threads-desc = Dar a cada partida su propio hilo
cmd-settings-language = idioma
cmd-settings-language-desc = Idioma de los mensajes públicos
cmd-export = exportar
cmd-export-desc = Descarga una partida: texto de pente.org (PGN), SGF, PSQ y una repetición animada
cmd-export-game = partida
cmd-export-game-desc = Qué partida (por defecto: la de este canal)
cmd-export-format = formato
cmd-export-format-desc = Qué archivo (por defecto: todos)

## Opciones

choice-game-gomoku = Gomoku (libre)
choice-game-gomoku-standard = Gomoku (estándar, exactamente cinco)
choice-game-pente = Pente
choice-game-keryo = Keryo-Pente (parejas y tríos)
choice-size-9x9 = 9×9
choice-size-13x13 = 13×13
choice-size-15x15 = 15×15
choice-size-19x19 = 19×19
choice-opening-none = Libre
choice-opening-pro = Pro
choice-opening-long-pro = Pro larga
choice-opening-swap = Intercambio
choice-opening-swap2 = Intercambio2
choice-players-2 = 2
choice-players-3 = 3 (sala)
choice-players-4 = 4 (sala)
choice-captures-none = Ninguna
choice-captures-pairs = Parejas
choice-captures-pairs-and-triples = Parejas y tríos
choice-line-4 = Cuatro
choice-line-5 = Cinco
choice-overline-wins = Una línea más larga gana
choice-overline-no = Exactamente la longitud de la línea
choice-self_capture-none = Segura
choice-self_capture-capture = Capturada
choice-self_capture-forbidden = Prohibida
choice-language-auto = Seguir a Discord
choice-language-en = English
choice-language-es = Español
choice-language-fi = Suomi
choice-pings-mention = Mencionarme
choice-pings-direct = Mencionarme y enviar un mensaje directo
choice-pings-off = Sin avisos
choice-format-all = Todos los archivos
choice-format-sgf = SGF
choice-format-gif = GIF animado

## Partidas y tableros

colour-black = negras
colour-white = blancas
colour-red = rojas
colour-blue = azules
board-move = Jugada
board-to-move = juega
board-move-played = jugada
board-moves-played = jugadas
board-wins = gana
board-draw = Empate
board-pairs = parejas
board-stones = piedras
board-choose-colour = elige color
board-player = Jugador
board-too-large = (La imagen del tablero es demasiado grande para adjuntarla aquí.)
game-title = Partida #{ $id } · { $game }
time-unlimited = Sin límite de tiempo
time-days-per-move = { $days ->
    [one] Un día por jugada
   *[other] { $days } días por jugada
}
turn-move = { $player }, te toca ({ $colour }).
turn-place-opening = { $player }, coloca la siguiente piedra de apertura ({ $colour }).
turn-choose = { $player }, elige tu color.
turn-choose-or-place = { $player }, elige tu color o coloca dos piedras más.
turn-extra-time = Tiempo extra: la línea ganadora vale salvo que esta jugada la rompa con una captura.
turn-deadline = Plazo: { $when }.
result-line = ¡{ $winners } { $count ->
    [one] gana
   *[other] ganan
} con una línea!
result-captures = ¡{ $winners } { $count ->
    [one] gana
   *[other] ganan
} por capturas!
result-resignation = { $winners } { $count ->
    [one] gana
   *[other] ganan
} por abandono.
result-timeout = { $winners } { $count ->
    [one] gana
   *[other] ganan
} por tiempo.
result-draw-agreed = La partida termina en tablas por acuerdo.
result-draw = La partida termina en empate: el tablero está lleno.
move-played = { $player } jugó { $point }.
move-played-capturing = { $player } jugó { $point } y capturó { $stones ->
    [one] una piedra
   *[other] { $stones } piedras
}.
move-took-colour = { $player } eligió { $colour }.
move-place-two = { $player } colocará dos piedras más y devolverá la elección.
moved-elsewhere = Hecho. La partida #{ $id } sigue en { $place }.
confirm-move = ¿Jugar { $point } en la partida #{ $id }?
confirm-done = Jugaste { $point } en la partida #{ $id }.
confirm-dropped = Jugada descartada (partida #{ $id }).
thread-unavailable = (No pude abrir un hilo para esta partida, así que se juega aquí.)
dm-your-turn = Te toca en la partida #{ $id }: { $place }

## Desafíos

challenge-named = { $challenger } desafía a { $opponent } a { $game } (desafío #{ $id }).
challenge-open = { $challenger } busca rival para { $game } (desafío #{ $id }). Cualquiera puede aceptar.
challenge-lobby = { $challenger } abre una sala de { $players } jugadores para { $game } (sala #{ $id }).
challenge-rated = Partida puntuada
challenge-expires = Abierto hasta { $when }.
challenge-status-accepted = Aceptado: la partida #{ $game } ha empezado.
challenge-status-declined = Rechazado.
challenge-status-cancelled = Retirado.
challenge-status-expired = Caducado: nadie respondió a tiempo.
lobby-members = Jugadores ({ $count }/{ $players }): { $members }
button-accept = Aceptar
button-decline = Rechazar
button-cancel = Cancelar
button-join = Unirse
button-leave = Salir
button-take-black = Elegir negras
button-take-white = Elegir blancas
button-place-two = Colocar dos más
button-confirm = Jugar { $point }

## /partidas, /preferencias, /ajustes, /exportar

games-none = No tienes partidas en curso en este servidor. Empieza una con /challenge.
games-header = { $count ->
    [one] Tu partida en este servidor:
   *[other] Tus { $count } partidas en este servidor:
}
games-line = #{ $id } · { $game } contra { $opponents } · { $turn } · { $place }
games-your-turn = te toca
games-their-turn = le toca a { $player }
games-waiting = esperando
value-on = sí
value-off = no
prefs-saved = Guardado. Tus preferencias:
prefs-current = Tus preferencias:
prefs-coordinates = Coordenadas: { $value }
prefs-highlight = Resaltar la última jugada: { $value }
prefs-confirm = Confirmar jugadas: { $value }
prefs-forbidden = Puntos prohibidos del renju marcados: { $value }
prefs-language = Idioma: { $value }
prefs-pings = Avisos de turno: { $value }
settings-saved = Guardado. Ajustes de este servidor:
settings-current = Ajustes de este servidor:
settings-game = Juego por defecto: { $value }
settings-time = Tiempo por defecto: { $value }
settings-threads = Un hilo por partida: { $value }
settings-language = Idioma de los mensajes públicos: { $value }
export-ready = Partida #{ $id }, lista para abrir en otras herramientas.
export-no-gif = Partida #{ $id }: la repetición animada es demasiado grande para adjuntarla; aquí están los registros.

## Errores (solo los ve quien los causa)

err-no-such-game = No existe esa partida en este servidor.
err-no-such-challenge = No existe ese desafío en este servidor.
err-not-your-turn = No es tu turno.
err-game-over = Esa partida ha terminado.
err-occupied = { $point } ya está ocupado.
err-opening-rule = { $point } incumple la regla de apertura: la primera piedra va en el centro y la segunda del primer jugador al menos a { $distance } puntos de él.
err-forbidden-self-capture = { $point } está prohibido: dejaría tus propias piedras capturadas.
err-off-board = { $point } no está en este tablero.
err-bad-choice = Esa no es una de las opciones.
err-wrong-phase = Eso no corresponde ahora: elegir color y colocar una piedra no son lo mismo.
err-malformed-point = «{ $text }» no es un punto. Escribe una letra de columna (A-T, sin I) y un número de fila, como K10.
err-point-out-of-bounds = { $text } está fuera del tablero de { $size }×{ $size }.
err-position-changed = La partida ha avanzado desde que se mostró esto; vuelve a mirar el tablero.
err-not-a-participant = No juegas en esa partida.
err-ambiguous = Tienes varias partidas aquí: indica una de { $games } con la opción partida.
err-no-active-game = No tienes ninguna partida en curso en este canal. Indica una con la opción partida o empieza una con /challenge.
err-challenge-self = No puedes desafiarte a ti mismo.
err-challenge-bot = Los bots no pueden jugar.
err-too-many-games = Ya tenéis { $max } partidas en curso; terminad una primero.
err-challenge-expired = Ese desafío ha caducado.
err-challenge-accepted = Ese desafío ya fue aceptado.
err-challenge-declined = Ese desafío fue rechazado.
err-challenge-cancelled = Ese desafío fue retirado.
err-challenge-closed = Ese desafío está cerrado.
err-not-challenged = Este desafío no es para ti.
err-not-challenger = Solo quien desafía puede hacer eso.
err-lobby-full = La sala está llena.
err-already-joined = Ya estás en esta sala.
err-not-joined = No estás en esta sala.
err-opponent-in-lobby = Una sala está abierta a todos: no indiques rival.
err-bad-time-control = { $days } días por jugada no es posible: elige 1, 2, 3, 5, 7, 10 o 14 (o 0 para jugar sin límite de tiempo).
err-storage-busy = La base de datos está ocupada; no se cambió nada. Inténtalo de nuevo en un momento.
err-storage-full = La base de datos se quedó sin espacio; no se cambió nada. Avisa a un administrador.
err-storage = La base de datos falló; no se cambió nada. Inténtalo más tarde.
err-rules-teams = Los equipos necesitan exactamente 4 jugadores.
err-rules-opening-players = Las reglas de apertura son solo para dos jugadores.
err-rules-capture-win-multiplayer = Con 3 o 4 jugadores, las capturas deben poder ganar (victoria por capturas mayor que 0).
err-rules-capture-win-captures = La victoria por capturas necesita capturas: indícalas también.
err-rules-self-capture-captures = La autocaptura necesita capturas: indícalas también.
err-rules-extra-time-captures = La captura de tiempo extra necesita capturas: indícalas también.
err-rules-mixed-players = Las capturas mixtas solo tienen sentido con 3 o 4 jugadores.
err-rules-invalid = Estas reglas no son posibles: { $detail }
err-unknown-button = Este botón ya no hace nada.
err-guild-only = Esto solo funciona en un servidor.
err-manage-server = Solo los miembros con el permiso Gestionar servidor pueden cambiar esto.
err-missing-permissions = No tengo permiso para publicar en { $place }. Un administrador puede darme allí los permisos Ver canal, Enviar mensajes, Adjuntar archivos y los de hilos. La partida está a salvo.
err-post-failed = No pude publicar el tablero en { $place }. La partida está a salvo.
err-internal = Algo falló por mi parte; no se perdió nada de lo que hiciste.
