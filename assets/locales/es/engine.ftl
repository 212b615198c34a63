## El rival computadora (/challenge opponent:@el-bot level:N)

cmd-challenge-level = nivel
cmd-challenge-level-desc = Contra el bot: 1 (principiante) a 5 (2 s por jugada), 6 correspondencia (piensa más); por defecto 3
engine-started = { $player } juega contra la computadora (nivel { $level }), partida #{ $id }.
engine-level-without-bot = La opción de nivel es para partidas contra el bot: elige al bot como rival o quita el nivel.
engine-two-players-only = La computadora solo juega partidas de dos jugadores: quita la opción de jugadores (o elige 2).
engine-bad-level = El nivel es un número del 1 al 6.
