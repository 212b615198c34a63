## The computer opponent (/challenge opponent:@the-bot level:N)

cmd-challenge-level = level
cmd-challenge-level-desc = Against the bot: 1 (beginner) to 5 (2 s a move), 6 correspondence (thinks longer); default 3
engine-started = { $player } plays against the computer (level { $level }), game #{ $id }.
engine-level-without-bot = The level option is for games against the bot: choose the bot as the opponent, or leave the level out.
engine-two-players-only = The computer plays two-player games only: leave out players (or choose 2).
engine-bad-level = The level is a number from 1 to 6.
