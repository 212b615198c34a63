## Rule sets in words (/rules, challenge messages)

preset-gomoku = Gomoku (freestyle)
preset-gomoku-standard = Gomoku (standard)
preset-pente = Pente
preset-keryo = Keryo-Pente
rules-title = { $game } on a { $size }×{ $size } board, { $players } players
rules-teams = Two teams: colours 1 and 3 against 2 and 4.
rules-turns = Players take turns placing one stone on an empty point; black moves first.
rules-line-or-more = Win: { $line } or more stones in an unbroken row (horizontal, vertical or diagonal).
rules-line-exact = Win: exactly { $line } stones in a row; a longer row does not win.
rules-no-captures = No captures: stones stay where they are.
rules-captures-pairs = Capture: bracket exactly two opposing stones between two of yours to remove them.
rules-captures-triples = Capture: bracket exactly two or exactly three opposing stones between two of yours to remove them.
rules-self-none = Placing a stone into a bracket is safe.
rules-self-capture = Placing your stones into a bracket removes them, and they count for the bracketing player.
rules-self-forbidden = You may not place a stone that completes a bracketed group of your own.
rules-mixed-on = Bracketed stones may belong to different opponents.
rules-mixed-off = Bracketed stones must all belong to one opponent.
rules-capture-win = Win: capture { $stones } stones.
rules-capture-win-teams = Win: capture { $stones } stones as a team (teammates' stones score nothing).
rules-capture-win-off = Captures do not win the game.
rules-extra-time = Extra-time capture: a winning row that the next player can break by a capture wins only if it survives their move.
rules-opening-none = Opening: free.
rules-opening-pro = Opening (pro): black's first stone on the centre, black's second stone at least { $distance } points from the centre.
rules-opening-swap = Opening (swap): the first player places two black and two white stones, then the second player chooses a colour.
rules-opening-swap2 = Opening (swap2): the first player places three stones; the second player takes black, takes white and places a stone, or places two more and lets the first player choose.
rules-draw = A full board with no winner is a draw.
rules-server-default = This server's default game

## Commands: names (cmd-NAME) and descriptions (cmd-NAME-desc), options (cmd-NAME-OPTION)

cmd-challenge = challenge
cmd-challenge-desc = Challenge a member (or anyone), or open a lobby for 3-4 players
cmd-challenge-opponent = opponent
cmd-challenge-opponent-desc = Who to play; leave empty for an open challenge anyone may accept
cmd-challenge-game = game
cmd-challenge-game-desc = The game (default: this server's)
cmd-challenge-size = size
cmd-challenge-size-desc = Board size
cmd-challenge-opening = opening
cmd-challenge-opening-desc = Opening rule (two players only)
cmd-challenge-players = players
cmd-challenge-players-desc = Number of players; 3 or 4 opens a lobby
cmd-challenge-teams = teams
cmd-challenge-teams-desc = Four players in two teams (1 and 3 against 2 and 4)
cmd-challenge-days_per_move = days_per_move
cmd-challenge-days_per_move-desc = Days per move: 1, 2, 3, 5, 7, 10 or 14; 0 = no limit (default: the server's)
cmd-challenge-rated = rated
cmd-challenge-rated-desc = Whether the game counts for ratings
cmd-challenge-captures = captures
cmd-challenge-captures-desc = Which groups are captured
cmd-challenge-capture_win = capture_win
cmd-challenge-capture_win-desc = Captured stones that win (0 = captures do not win)
cmd-challenge-line = line
cmd-challenge-line-desc = Stones in a row that win
cmd-challenge-overline = overline
cmd-challenge-overline-desc = Whether a longer row wins
cmd-challenge-self_capture = self_capture
cmd-challenge-self_capture-desc = What happens to stones placed into a bracket
cmd-challenge-extra_time_capture = extra_time_capture
cmd-challenge-extra_time_capture-desc = A winning row that can be broken by a capture must survive one move
cmd-challenge-mixed_captures = mixed_captures
cmd-challenge-mixed_captures-desc = With 3-4 players: captured pairs may mix opponents' colours
cmd-move = move
cmd-move-desc = Play a stone (or a swap choice: take:1, take:2, place)
cmd-move-at = at
cmd-move-at-desc = The point, like K10 (leave it out to pick it with buttons)
cmd-move-game = game
cmd-move-game-desc = Which game (needed only if you have several here)
cmd-board = board
cmd-board-desc = Show a game's board (only to you)
cmd-board-game = game
cmd-board-game-desc = Which game (default: the one in this channel)
cmd-games = games
cmd-games-desc = Your games on this server: whose turn, deadlines
cmd-resign = resign
cmd-resign-desc = Resign a game
cmd-resign-game = game
cmd-resign-game-desc = Which game (needed only if you have several here)
cmd-rules = rules
cmd-rules-desc = The rules of a game (or of this server's default game)
cmd-rules-game = game
cmd-rules-game-desc = Which game (default: the one in this channel)
cmd-prefs = prefs
cmd-prefs-desc = Your preferences: coordinates, highlight, confirmation, language, pings, forbidden points
cmd-prefs-coordinates = coordinates
cmd-prefs-coordinates-desc = Show coordinates around the board
cmd-prefs-highlight = highlight
cmd-prefs-highlight-desc = Mark the last move
cmd-prefs-confirm = confirm
cmd-prefs-confirm-desc = Preview each move with Confirm / Cancel buttons
cmd-prefs-language = language
cmd-prefs-language-desc = The bot's language for you
cmd-prefs-pings = pings
cmd-prefs-pings-desc = How to tell you it is your turn
cmd-prefs-forbidden = forbidden
cmd-prefs-forbidden-desc = Renju: mark black's forbidden points with a red cross
cmd-settings = settings
cmd-settings-desc = Server defaults (Manage Server only)
cmd-settings-game = game
cmd-settings-game-desc = Default game for new challenges
cmd-settings-size = size
cmd-settings-size-desc = Default board size
cmd-settings-opening = opening
cmd-settings-opening-desc = Default opening rule
cmd-settings-days_per_move = days_per_move
cmd-settings-days_per_move-desc = Default days per move: 1, 2, 3, 5, 7, 10 or 14; 0 = no limit
cmd-settings-threads = threads
cmd-settings-threads-desc = Give each game its own thread
cmd-settings-language = language
cmd-settings-language-desc = Language of public messages
cmd-export = export
cmd-export-desc = Download a game: pente.org text (PGN), SGF, PSQ and an animated replay
cmd-export-game = game
cmd-export-game-desc = Which game (default: the one in this channel)
cmd-export-format = format
cmd-export-format-desc = Which file (default: all)

## Choice labels

choice-game-gomoku = Gomoku (freestyle)
choice-game-gomoku-standard = Gomoku (standard, exactly five)
choice-game-pente = Pente
choice-game-keryo = Keryo-Pente (pairs and triples)
choice-size-9x9 = 9×9
choice-size-13x13 = 13×13
choice-size-15x15 = 15×15
choice-size-19x19 = 19×19
choice-opening-none = Free
choice-opening-pro = Pro
choice-opening-long-pro = Long pro
choice-opening-swap = Swap
choice-opening-swap2 = Swap2
choice-players-2 = 2
choice-players-3 = 3 (lobby)
choice-players-4 = 4 (lobby)
choice-captures-none = None
choice-captures-pairs = Pairs
choice-captures-pairs-and-triples = Pairs and triples
choice-line-4 = Four
choice-line-5 = Five
choice-overline-wins = A longer row wins
choice-overline-no = Exactly the line length
choice-self_capture-none = Safe
choice-self_capture-capture = Captured
choice-self_capture-forbidden = Forbidden
choice-language-auto = Follow Discord
choice-language-en = English
choice-language-es = Español
choice-language-fi = Suomi
choice-pings-mention = Mention me
choice-pings-direct = Mention me and send a direct message
choice-pings-off = No pings
choice-format-all = All files
choice-format-sgf = SGF
choice-format-gif = Animated GIF

## Games and boards

colour-black = black
colour-white = white
colour-red = red
colour-blue = blue
board-move = Move
board-to-move = to play
board-move-played = move
board-moves-played = moves
board-wins = wins
board-draw = Draw
board-pairs = pairs
board-stones = stones
board-choose-colour = chooses a colour
board-player = Player
board-too-large = (The board picture is too large to attach here.)
game-title = Game #{ $id } · { $game }
time-unlimited = No time limit
time-days-per-move = { $days ->
    [one] One day per move
   *[other] { $days } days per move
}
turn-move = { $player }, your move ({ $colour }).
turn-place-opening = { $player }, place the next opening stone ({ $colour }).
turn-choose = { $player }, choose your colour.
turn-choose-or-place = { $player }, choose your colour, or place two more stones.
turn-extra-time = Extra time: the winning row stands unless this move breaks it by a capture.
turn-deadline = Due { $when }.
result-line = { $winners } { $count ->
    [one] wins
   *[other] win
} with a row!
result-captures = { $winners } { $count ->
    [one] wins
   *[other] win
} by captures!
result-resignation = { $winners } { $count ->
    [one] wins
   *[other] win
} by resignation.
result-timeout = { $winners } { $count ->
    [one] wins
   *[other] win
} on time.
result-draw-agreed = The game is a draw by agreement.
result-draw = The game is a draw: the board is full.
move-played = { $player } played { $point }.
move-played-capturing = { $player } played { $point } and captured { $stones ->
    [one] one stone
   *[other] { $stones } stones
}.
move-took-colour = { $player } took { $colour }.
move-place-two = { $player } will place two more stones and hand the choice back.
moved-elsewhere = Done. Game #{ $id } goes on in { $place }.
confirm-move = Play { $point } in game #{ $id }?
confirm-done = Played { $point } in game #{ $id }.
confirm-dropped = Move dropped (game #{ $id }).
thread-unavailable = (I could not open a thread for this game, so it is played here.)
dm-your-turn = Your move in game #{ $id }: { $place }

## Challenges

challenge-named = { $challenger } challenges { $opponent } to { $game } (challenge #{ $id }).
challenge-open = { $challenger } is looking for an opponent for { $game } (challenge #{ $id }). Anyone may accept.
challenge-lobby = { $challenger } opens a { $players }-player lobby for { $game } (lobby #{ $id }).
challenge-rated = Rated game
challenge-expires = Open until { $when }.
challenge-status-accepted = Accepted: game #{ $game } has started.
challenge-status-declined = Declined.
challenge-status-cancelled = Withdrawn.
challenge-status-expired = Expired: nobody answered in time.
lobby-members = Players ({ $count }/{ $players }): { $members }
button-accept = Accept
button-decline = Decline
button-cancel = Cancel
button-join = Join
button-leave = Leave
button-take-black = Take black
button-take-white = Take white
button-place-two = Place two more
button-confirm = Play { $point }

## /games, /prefs, /settings, /export

games-none = You have no games in progress on this server. Start one with /challenge.
games-header = { $count ->
    [one] Your game on this server:
   *[other] Your { $count } games on this server:
}
games-line = #{ $id } · { $game } vs { $opponents } · { $turn } · { $place }
games-your-turn = your turn
games-their-turn = { $player }'s turn
games-waiting = waiting
value-on = on
value-off = off
prefs-saved = Saved. Your preferences:
prefs-current = Your preferences:
prefs-coordinates = Coordinates: { $value }
prefs-highlight = Last-move highlight: { $value }
prefs-confirm = Move confirmation: { $value }
prefs-forbidden = Renju forbidden points marked: { $value }
prefs-language = Language: { $value }
prefs-pings = Turn notifications: { $value }
settings-saved = Saved. This server's settings:
settings-current = This server's settings:
settings-game = Default game: { $value }
settings-time = Default time control: { $value }
settings-threads = A thread for each game: { $value }
settings-language = Language of public messages: { $value }
export-ready = Game #{ $id }, ready to open in other tools.
export-no-gif = Game #{ $id }: the animated replay is too large to attach; here are the records.

## Errors (shown only to whoever caused them)

err-no-such-game = There is no such game on this server.
err-no-such-challenge = There is no such challenge on this server.
err-not-your-turn = It is not your turn.
err-game-over = That game is over.
err-occupied = { $point } is already taken.
err-opening-rule = { $point } breaks the opening rule: the first stone goes on the centre and the first player's second stone at least { $distance } points from it.
err-forbidden-self-capture = { $point } is forbidden: it would put your own stones into a capture.
err-off-board = { $point } is not on this board.
err-bad-choice = That is not one of the choices.
err-wrong-phase = That does not fit now: a colour choice and a stone are not the same thing.
err-malformed-point = "{ $text }" is not a point. Write a column letter (A-T, without I) and a row number, like K10.
err-point-out-of-bounds = { $text } is outside the { $size }×{ $size } board.
err-position-changed = The game moved on since this was shown; look at the board again.
err-not-a-participant = You do not play in that game.
err-ambiguous = You have several games here: name one of { $games } with the game option.
err-no-active-game = You have no game in progress in this channel. Name one with the game option, or start one with /challenge.
err-challenge-self = You cannot challenge yourself.
err-challenge-bot = Bots cannot play.
err-too-many-games = You two already have { $max } games going; finish one first.
err-challenge-expired = That challenge has expired.
err-challenge-accepted = That challenge was already accepted.
err-challenge-declined = That challenge was declined.
err-challenge-cancelled = That challenge was withdrawn.
err-challenge-closed = That challenge is closed.
err-not-challenged = This challenge is not for you.
err-not-challenger = Only the challenger can do that.
err-lobby-full = The lobby is full.
err-already-joined = You are already in this lobby.
err-not-joined = You are not in this lobby.
err-opponent-in-lobby = A lobby is open to everyone: leave out the opponent.
err-bad-time-control = { $days } days per move is not possible: choose 1, 2, 3, 5, 7, 10 or 14 (or 0 for no time limit).
err-storage-busy = The game database is busy; nothing was changed. Try again in a moment.
err-storage-full = The game database is out of space; nothing was changed. Please tell a server admin.
err-storage = The game database failed; nothing was changed. Try again later.
err-rules-teams = Teams need exactly 4 players.
err-rules-opening-players = Opening rules are for two players only.
err-rules-capture-win-multiplayer = With 3 or 4 players, captures must be able to win (capture_win above 0).
err-rules-capture-win-captures = A capture win needs captures: set captures too.
err-rules-self-capture-captures = Self-capture needs captures: set captures too.
err-rules-extra-time-captures = Extra-time capture needs captures: set captures too.
err-rules-mixed-players = Mixed captures mean something only with 3 or 4 players.
err-rules-invalid = These rules are not possible: { $detail }
err-unknown-button = This button no longer does anything.
err-guild-only = This works only in a server.
err-manage-server = Only members with the Manage Server permission can change this.
err-missing-permissions = I am not allowed to post in { $place }. A server admin can give me the View Channel, Send Messages, Attach Files and thread permissions there. The game itself is safe.
err-post-failed = I could not post the board in { $place }. The game itself is safe.
err-internal = Something went wrong on my side; nothing you did was lost.
