# Clocks: live time control, reminders, loss on time, vacation (issue 7).

cmd-vacation = vacation
cmd-vacation-desc = Your vacation time left this year (spent automatically when a deadline passes)
cmd-challenge-minutes_per_move = minutes_per_move
cmd-challenge-minutes_per_move-desc = Live game: minutes per move, 1, 2, 5, 10, 30 or 60 (instead of days)
cmd-settings-minutes_per_move = minutes_per_move
cmd-settings-minutes_per_move-desc = Default for live games: minutes per move, 1, 2, 5, 10, 30 or 60

clock-minutes-per-move = { $minutes ->
    [one] One minute per move
   *[other] { $minutes } minutes per move
}
clock-err-bad-minutes = { $minutes } minutes per move is not possible: choose 1, 2, 5, 10, 30 or 60.
clock-err-days-and-minutes = Choose days per move or minutes per move, not both.

clock-reminder = ⏰ { $player }, your move in game #{ $id } is due { $when }.
clock-reminder-dm = ⏰ Your move in game #{ $id } ({ $place }) is due { $when }.
clock-vacation-started = 🏖️ { $player } did not move in game #{ $id } in time: their vacation time is being spent, an hour at a time ({ $left } hours left this year). Now due { $when }.
clock-timeout = ⏰ Game #{ $id } is over: { $player } ran out of time.
clock-timeout-dm = ⏰ Game #{ $id } ({ $place }) is over: { $player } ran out of time.
clock-move-retired = ⏰ { $player } ran out of time and is out; the others play on.

clock-vacation-left = 🏖️ Vacation time left in { $year }: **{ $days ->
    [one] { $days } day
   *[other] { $days } days
} and { $hours ->
    [one] { $hours } hour
   *[other] { $hours } hours
}** of { $allowance ->
    [one] { $allowance } day
   *[other] { $allowance } days
}.
clock-vacation-used = Used this year: { $used } hours. When a deadline passes in a game counted in days, an hour of vacation is spent and the deadline moves by an hour; when none is left, you lose on time. Live games never use vacation.
