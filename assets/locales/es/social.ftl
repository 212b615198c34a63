## Entre jugadores: /deshacer, /tablas, revanchas

cmd-undo = deshacer
cmd-undo-desc = Pide a tu rival que te deje deshacer tu última jugada
cmd-undo-game = partida
cmd-undo-game-desc = La partida (si juegas varias aquí)
cmd-draw = tablas
cmd-draw-desc = Ofrece tablas a tu rival (partidas de dos jugadores)
cmd-draw-game = partida
cmd-draw-game-desc = La partida (si juegas varias aquí)

button-rematch = Revancha

offer-undo = **Partida #{ $id }** · { $player } pide deshacer { $moves }. { $answerers }: ¿aceptas?
offer-draw = **Partida #{ $id }** · { $player } ofrece tablas. { $answerers }: ¿aceptas?
offer-posted = Tu oferta está publicada en { $place }.
offer-undo-accepted = { $player } aceptó: se deshizo { $moves }.
offer-undo-computer = { $player } deshizo { $moves }; la computadora aceptó.
offer-draw-accepted = { $player } aceptó las tablas.
offer-waiting = { $player } aceptó; falta la respuesta de { $waiting }.
offer-declined = { $player } lo rechazó.
offer-withdrawn = { $player } retiró la oferta.
offer-expired = Esta oferta caducó: la partida ha avanzado.
offer-undo-lapsed = **Partida #{ $id }** · La petición de deshacer de { $player } caducó: la partida ha avanzado.
offer-draw-lapsed = **Partida #{ $id }** · La oferta de tablas de { $player } caducó: la partida ha avanzado.
dm-offer-undo = { $player } pide deshacer una jugada en la partida #{ $id }: { $place }
dm-offer-draw = { $player } ofrece tablas en la partida #{ $id }: { $place }
rematch-lead = Revancha de la partida #{ $id }, con los puestos intercambiados.
rematch-posted = Tu propuesta de revancha está en { $place }.
dm-rematch = { $player } propone la revancha de la partida #{ $id }: { $place }
dm-challenge = { $player } te desafía a una partida: { $place }

err-offer-no-such = Esa oferta ya no existe.
err-offer-not-yours = Solo los otros jugadores de esta partida pueden responder a esta oferta.
err-offer-nothing-to-undo = Todavía no tienes ninguna jugada que deshacer.
err-offer-draw-two-players = Solo se pueden ofrecer tablas en partidas de dos jugadores.
err-offer-rematch-two-players = Las revanchas son solo para partidas de dos jugadores.
err-offer-computer = La computadora no acepta tablas ni juega revanchas. Para jugar otra vez contra ella, usa `/challenge` con ella como rival.
err-offer-not-computer = Tu rival es un miembro: `/undo` se lo pide.
err-offer-own = No puedes aceptar tu propia oferta: decide tu rival.
err-offer-expired = Esta oferta caducó: la partida ha avanzado desde que se hizo.
err-offer-accepted = Esta oferta ya fue aceptada.
err-offer-declined = Esta oferta ya fue rechazada.
err-offer-withdrawn = Esta oferta fue retirada.
err-offer-pending = Ya hiciste esta oferta; espera la respuesta.
err-offer-game-not-over = Se puede proponer una revancha cuando la partida haya terminado.
err-offer-rematch-pending = Ya se ha propuesto una revancha de esta partida.
err-offer-rematched = Esta partida ya tuvo su revancha.
err-offer-rematched-as = Esta partida ya tuvo su revancha: la partida #{ $id }.
