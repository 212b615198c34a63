## Ratings and records: /leaderboard, /rating, /history, /replay, PSQ exports.

cmd-leaderboard = leaderboard
cmd-leaderboard-desc = This server's ranking for a game, best first
cmd-leaderboard-game = game
cmd-leaderboard-game-desc = Which game (default: this server's default game)
cmd-rating = rating
cmd-rating-desc = A member's ratings (default: yours), on this server and on all servers
cmd-rating-member = member
cmd-rating-member-desc = Whose ratings (default: yours)
cmd-history = history
cmd-history-desc = A member's recent games on this server: results and rating changes
cmd-history-member = member
cmd-history-member-desc = Whose games (default: yours)
cmd-replay = replay
cmd-replay-desc = The animated replay of a game, for everyone in the channel
cmd-replay-game = game
cmd-replay-game-desc = Which game (default: the one in this channel)

choice-format-pente = pente.org text (PGN)
choice-format-psq = PSQ (Piskvork, Gomoku only)

button-previous = Previous
button-next = Next

leaderboard-title = **{ $game }: ranking on this server** · page { $page } of { $pages }
leaderboard-empty = Nobody has finished a rated game of { $game } on this server yet.
leaderboard-line = { $rank }. { $player } · { $rating } · { $games } games ({ $wins } won, { $losses } lost, { $draws } drawn)

rating-title = Ratings of { $player }
rating-none = { $player } has no rated games yet.
rating-server = On this server
rating-global = On all servers
rating-scope-none = No rated games.
rating-line = { $game }: { $rating } ±{ $deviation } · { $games } games ({ $wins } won, { $losses } lost, { $draws } drawn)

history-title = Recent games of { $player }
history-none = { $player } has no finished games on this server yet.
history-line = Game #{ $id } · { $game } · { $result } ({ $reason }) against { $opponents } · { $change } · { $when }
history-won = won
history-lost = lost
history-drawn = drawn
history-unrated = unrated
history-by-line = a row
history-by-captures = captures
history-by-board-full = full board
history-by-resignation = resignation
history-by-timeout = on time
history-by-agreement = agreed

replay-ready = The replay of game #{ $id }.
replay-too-large = Game #{ $id }: the replay is { $size }, more than the { $limit } Discord accepts here. The records are smaller: try /export.
replay-failed = Game #{ $id }: the replay could not be drawn.

export-psq-captures = Game #{ $id } has captures, which PSQ cannot record: choose the pente.org or SGF format.
export-psq-players = Game #{ $id } has { $players } players; PSQ records two-player games only.
