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
