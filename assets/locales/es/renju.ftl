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
err-rules-renju-opening-preset = Taraguchi-10 y Soosõrv-8 son aperturas de Renju: elige el juego Renju para usarlas.
err-opening-area = { $point } está fuera de la zona de apertura: la jugada { $move } va dentro del cuadrado central de { $side }×{ $side }.
err-offer-count = Ofrece exactamente { $expected } quintas jugadas (has dado { $given }).
err-offer-repeated = { $point } está ofrecido dos veces.
err-offer-symmetric = { $a } y { $b } son simétricos: dan la misma posición. Ofrece quintas jugadas distintas.
err-not-offered = { $point } no es una de las quintas jugadas ofrecidas.
rules-opening-taraguchi-10 = Apertura (Taraguchi-10): el primer jugador (negras provisionales) coloca la jugada 1 en el centro; la jugada 2 va dentro del 3×3 central, la 3 dentro del 5×5 y la 4 dentro del 7×7, cada una colocada por quien tenga entonces ese color, y tras cada una el otro jugador puede cambiar los colores. Tras la jugada 4, quien lleva negras puede cambiar, y entonces las negras colocan la jugada 5 dentro del 9×9 y las blancas pueden volver a cambiar, o bien ofrecer 10 quintas jugadas en cualquier lugar (sin dos simétricas), de las que las blancas eligen una. Después las blancas juegan la 6 donde quieran.
rules-opening-soosorv-8 = Apertura (Soosõrv-8): el primer jugador (negras provisionales) coloca las jugadas 1 a 3 (el centro, dentro del 3×3, dentro del 5×5: una de las 26 aperturas); el otro puede cambiar. Las blancas colocan la jugada 4 en cualquier lugar y declaran un número del 1 al 8; las negras pueden cambiar. Las negras ofrecen entonces ese número de quintas jugadas (sin dos simétricas) y las blancas eligen una y juegan la 6.
turn-move-area = { $player }, tu jugada ({ $colour }), dentro del cuadrado central de { $side }×{ $side }.
turn-swap = { $player }: ¿cambias de color o mantienes el tuyo?
turn-swap-or-offer = { $player }: ¿cambias de color, mantienes el tuyo y colocas la jugada 5 dentro del 9×9, u ofreces 10 quintas jugadas?
turn-declare = { $player }: ¿cuántas quintas jugadas deben ofrecer las negras (de 1 a 8)?
turn-offer = { $player }, ofrece { $count } quintas jugadas para las negras (sin dos simétricas).
turn-select = { $player }, elige una de las quintas jugadas ofrecidas; después juega la 6.
move-swapped = { $player } cambió de color.
move-kept = { $player } mantuvo su color.
move-declared = { $player } declaró { $count } { $count ->
    [one] quinta jugada
   *[other] quintas jugadas
}.
move-offered = { $player } ofreció { $count } { $count ->
    [one] quinta jugada
   *[other] quintas jugadas
}: { $points }.
move-chose-fifth = { $player } eligió { $point } como quinta jugada.
choice-game-renju = Renju (puntos prohibidos de las negras)
choice-opening-taraguchi-10 = Taraguchi-10 (Renju)
choice-opening-soosorv-8 = Soosõrv-8 (Renju)
button-renju-swap = Cambiar de color
button-renju-keep = Mantener mi color
select-renju-declare = Número de quintas jugadas que deben ofrecer las negras
select-renju-offer = Elige { $count } quintas jugadas para ofrecer
turn-offer-how = Elige las quintas jugadas en el menú, o escribe otras con `/jugar punto:offer:H8,J9,...`.
err-renju-bad-choice = No se puede leer esa elección. Usa los botones y menús bajo el último tablero.
