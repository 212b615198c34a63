## Análisis con el motor (issue 14): /review y el botón Analizar.

cmd-review = analizar
cmd-review-desc = Analiza una partida terminada con el motor: gráfica de probabilidad de victoria y momentos clave
cmd-review-game = partida
cmd-review-game-desc = Qué partida terminada (su número)
review-button = Analizar
review-progress = Analizando la partida #{ $id }… { $done }/{ $total }
review-title = **Análisis de la partida #{ $id }** (por el motor)
review-player = { $name }: precisión { $accuracy }% · imprecisiones { $inaccuracies } · errores { $mistakes } · errores graves { $blunders }
review-turning-points = Momentos clave:
review-no-turning-points = Ningún momento clave: nadie perdió 20 puntos de probabilidad de victoria en una jugada.
review-turning-point = Jugada { $number }, { $point } de { $name } ({ $class }), cambió la probabilidad de { $colour } del { $before }% al { $after }%
review-better = ; { $point } la mantenía en { $before }%
review-class-mistake = un error
review-class-blunder = un error grave
review-method = -# Cada posición se busca con un número fijo de nodos; imprecisión, error y error grave: pérdida de 10, 20 y 30 puntos de probabilidad de victoria.
review-chart-title = Probabilidad de victoria de las negras
review-chart-move = Jugada
review-in-progress = Esta partida aún se está jugando: se podrá analizar cuando termine.
review-two-players = Solo se pueden analizar partidas de dos jugadores: el motor juzga solo dos colores.
review-busy = Esta partida se está analizando ahora mismo: el análisis aparecerá en ese mensaje.
review-failed = No se pudo terminar el análisis de la partida #{ $id }. Pídelo de nuevo con /review.
