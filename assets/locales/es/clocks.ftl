# Relojes: tiempo en vivo, recordatorios, derrota por tiempo, vacaciones (issue 7).

cmd-vacation = vacaciones
cmd-vacation-desc = Tus vacaciones restantes este año (se gastan solas cuando vence un plazo)
cmd-challenge-minutes_per_move = minutos_por_jugada
cmd-challenge-minutes_per_move-desc = Partida en vivo: minutos por jugada, 1, 2, 5, 10, 30 o 60 (en vez de días)
cmd-settings-minutes_per_move = minutos_por_jugada
cmd-settings-minutes_per_move-desc = Por defecto para partidas en vivo: minutos por jugada, 1, 2, 5, 10, 30 o 60

clock-minutes-per-move = { $minutes ->
    [one] Un minuto por jugada
   *[other] { $minutes } minutos por jugada
}
clock-err-bad-minutes = { $minutes } minutos por jugada no es posible: elige 1, 2, 5, 10, 30 o 60.
clock-err-days-and-minutes = Elige días por jugada o minutos por jugada, no ambos.

clock-reminder = ⏰ { $player }, tu jugada en la partida #{ $id } vence { $when }.
clock-reminder-dm = ⏰ Tu jugada en la partida #{ $id } ({ $place }) vence { $when }.
clock-vacation-started = 🏖️ { $player } no jugó a tiempo en la partida #{ $id }: se están gastando sus vacaciones, una hora cada vez (le quedan { $left } horas este año). Nuevo plazo: { $when }.
clock-timeout = ⏰ La partida #{ $id } ha terminado: a { $player } se le acabó el tiempo.
clock-timeout-dm = ⏰ La partida #{ $id } ({ $place }) ha terminado: a { $player } se le acabó el tiempo.
clock-move-retired = ⏰ A { $player } se le acabó el tiempo y queda fuera; los demás siguen jugando.

clock-vacation-left = 🏖️ Vacaciones restantes en { $year }: **{ $days ->
    [one] { $days } día
   *[other] { $days } días
} y { $hours ->
    [one] { $hours } hora
   *[other] { $hours } horas
}** de { $allowance ->
    [one] { $allowance } día
   *[other] { $allowance } días
}.
clock-vacation-used = Usadas este año: { $used } horas. Cuando vence un plazo en una partida por días, se gasta una hora de vacaciones y el plazo se mueve una hora; cuando no quedan, pierdes por tiempo. Las partidas en vivo nunca usan vacaciones.
