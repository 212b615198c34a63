## El selector de puntos (issue 14): el botón Jugar y /jugar sin punto.

picker-play = Jugar
picker-centre = ◎
picker-title = Partida #{ $id }: elige tu punto ({ $from } a { $to }). Las flechas mueven la ventana, ◎ vuelve a la última piedra.
picker-stale = Este selector está desactualizado: la partida ha avanzado. Usa el botón Jugar bajo el tablero más reciente.
picker-played = Jugaste { $point } en la partida #{ $id }.
