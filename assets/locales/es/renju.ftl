## Renju (issue 13): puntos prohibidos, sus reglas y sus aperturas

preset-renju = Renju
renju-shape-double_three = un doble tres
renju-shape-double_four = un doble cuatro
renju-shape-overline = una línea larga
err-forbidden-renju = { $point } es un punto prohibido para las negras: haría { $shape }. En Renju las negras no pueden hacer un doble tres, un doble cuatro ni una línea larga (seis o más), salvo que la jugada haga exactamente cinco.
err-rules-renju-fixed = Renju fija { $key }: dos jugadores, cinco en línea, sin capturas y su propia regla de línea larga.
err-rules-renju-opening = Esa apertura no se juega en Renju: elige taraguchi-10, soosorv-8, swap2 o none.
rules-renju-win = Victoria: cinco en línea. Las negras (que empiezan) solo ganan con exactamente cinco; las blancas ganan con cinco o más.
rules-renju-forbidden = Las negras no pueden jugar en un punto prohibido: uno que haga un doble tres (dos treses abiertos a la vez), un doble cuatro (dos cuatros a la vez, también en la misma línea) o una línea larga (seis o más en línea). Una jugada que hace exactamente cinco gana aunque también haga una de estas figuras. Las blancas no tienen restricciones, y ganan si obligan a las negras a un punto prohibido.
rules-renju-three = Un tres solo cuenta si puede convertirse en un cuatro abierto con una jugada que esté permitida.
