# Tournaments (issue 15): /tournament and its subcommands, announcements, rounds, standings.

cmd-tournament = tournament
cmd-tournament-desc = Tournaments in this server: round robin or Swiss, played over days
cmd-tournament-create = create
cmd-tournament-create-desc = Create a tournament; members join with its button
cmd-tournament-create-name = name
cmd-tournament-create-name-desc = The tournament's name
cmd-tournament-create-format = format
cmd-tournament-create-format-desc = Round robin (everyone plays everyone) or Swiss
cmd-tournament-create-game = game
cmd-tournament-create-game-desc = The game (default: this server's)
cmd-tournament-create-size = size
cmd-tournament-create-size-desc = Board size
cmd-tournament-create-opening = opening
cmd-tournament-create-opening-desc = Opening rule
cmd-tournament-create-days_per_move = days_per_move
cmd-tournament-create-days_per_move-desc = Days per move: 1, 2, 3, 5, 7, 10 or 14; 0 = no limit (default: the server's)
cmd-tournament-create-minutes_per_move = minutes_per_move
cmd-tournament-create-minutes_per_move-desc = Live games: minutes per move, 1, 2, 5, 10, 30 or 60 (instead of days)
cmd-tournament-create-rated = rated
cmd-tournament-create-rated-desc = Whether the games count for ratings (default: yes)
cmd-tournament-create-max_players = max_players
cmd-tournament-create-max_players-desc = The most players (round robin 3-32, default 16; Swiss 3-256, default 64)
cmd-tournament-create-rounds = rounds
cmd-tournament-create-rounds-desc = Swiss only: rounds (default: enough to find a winner, ceil(log2(players)))
cmd-tournament-create-games_per_pairing = games_per_pairing
cmd-tournament-create-games_per_pairing-desc = Round robin only: 1, or 2 (each pair plays once with each colour)
cmd-tournament-create-players = players
cmd-tournament-create-players-desc = Players per game (tournament games are for two)
cmd-tournament-create-teams = teams
cmd-tournament-create-teams-desc = Teams (four-player games only, so not for tournaments)
cmd-tournament-create-captures = captures
cmd-tournament-create-captures-desc = Which groups are captured
cmd-tournament-create-capture_win = capture_win
cmd-tournament-create-capture_win-desc = Captured stones that win (0 = captures do not win)
cmd-tournament-create-line = line
cmd-tournament-create-line-desc = Stones in a row that win
cmd-tournament-create-overline = overline
cmd-tournament-create-overline-desc = Whether a longer row wins
cmd-tournament-create-self_capture = self_capture
cmd-tournament-create-self_capture-desc = What happens to stones placed into a bracket
cmd-tournament-create-extra_time_capture = extra_time_capture
cmd-tournament-create-extra_time_capture-desc = A winning row that a capture can break must survive one move
cmd-tournament-create-mixed_captures = mixed_captures
cmd-tournament-create-mixed_captures-desc = 3-4 players: a captured pair may mix opponents' colours
cmd-tournament-join = join
cmd-tournament-join-desc = Join a tournament that is still open
cmd-tournament-join-tournament = tournament
cmd-tournament-join-tournament-desc = Which tournament (default: the only one open here)
cmd-tournament-leave = leave
cmd-tournament-leave-desc = Leave a tournament; after its start you withdraw and resign your running game
cmd-tournament-leave-tournament = tournament
cmd-tournament-leave-tournament-desc = Which tournament (default: the only one here)
cmd-tournament-start = start
cmd-tournament-start-desc = Close entries and start round 1 (the creator or a server manager)
cmd-tournament-start-tournament = tournament
cmd-tournament-start-tournament-desc = Which tournament (default: the only one open here)
cmd-tournament-cancel = cancel
cmd-tournament-cancel-desc = Call off a tournament before its start (the creator or a server manager)
cmd-tournament-cancel-tournament = tournament
cmd-tournament-cancel-tournament-desc = Which tournament (default: the only one open here)
cmd-tournament-standings = standings
cmd-tournament-standings-desc = The standings, as a picture and text (only to you)
cmd-tournament-standings-tournament = tournament
cmd-tournament-standings-tournament-desc = Which tournament (default: the only one here)
cmd-tournament-list = list
cmd-tournament-list-desc = This server's tournaments (only to you)

choice-format-round-robin = Round robin
choice-format-swiss = Swiss

tournament-format-round-robin = { $games ->
    [2] double round robin
   *[other] round robin
}
tournament-format-swiss = Swiss, { $rounds ->
    [one] one round
   *[other] { $rounds } rounds
}
tournament-format-swiss-default = Swiss, rounds set at the start
tournament-state-open = open for entries
tournament-state-running = running
tournament-state-finished = finished
tournament-state-cancelled = cancelled
tournament-title = 🏆 **{ $name }** (#{ $id }) · { $format } · { $game }
tournament-swap-note = Swap opening: the first player named places the opening stones and the colours are chosen in the game, not by the pairing.
tournament-no-players = No players yet.
tournament-players = Players ({ $count }/{ $max }): { $players }
tournament-open-hint = Join with the button or `/tournament join`. { $creator } (or a member with Manage Server) starts it with `/tournament start` once at least { $min } have joined.
tournament-running = Running: round { $round } of { $total }.
tournament-finished = Finished. { $count ->
    [one] Winner: { $winners }
   *[other] Winners: { $winners }
}
tournament-cancelled = Cancelled.
tournament-cancelled-by-you = **{ $name }** is cancelled.
tournament-joined = You joined **{ $name }**.
tournament-left = You left **{ $name }**.
tournament-withdrew = You withdrew from **{ $name }**; you will not be paired again.
tournament-withdrew-resigned = You withdrew from **{ $name }** and resigned game #{ $game }; you will not be paired again.
tournament-started = **{ $name }** has started with { $players } players: { $total ->
    [one] one round
   *[other] { $total } rounds
}. Round 1's games are opening in their threads.
tournament-round-title = **{ $name }** · round { $round } of { $total }
tournament-game-lead = **{ $name }** · round { $round }, board { $board }
tournament-board-line = Board { $board }: { $first } vs { $second } · game #{ $game } { $place }
tournament-bye-line = Bye: { $player } (one point)
tournament-forfeit-line = Board { $board }: { $first } vs { $second } · no game, { $winner } wins by forfeit
tournament-standings-heading = **{ $name }** (#{ $id }) · { $status } · { $round } of { $total } rounds played
tournament-standing-line = { $rank }. { $player } · { $points } ({ $tiebreak }) · { $games } games
tournament-tiebreak-swiss = Buchholz { $bh }, SB { $sb }
tournament-tiebreak-rr = SB { $sb }
tournament-more-players = …and { $count } more.
tournament-withdrawn = withdrawn
tournament-final-title = **{ $name }** is over after { $rounds } rounds.
tournament-winners = { $count ->
    [one] 🏆 Winner: { $winners }
   *[other] 🏆 Winners (shared first place): { $winners }
}
tournament-all-games = Every game:
tournament-round-games = Round { $round }: { $games }
tournament-list-empty = No tournaments in this server yet. Create one with `/tournament create`.
tournament-list-line = #{ $id } **{ $name }** · { $status } · { $count } players

tournament-table-final = Final standings
tournament-table-open = Entries open
tournament-table-round = After round { $round } of { $total }
tournament-col-rank = #
tournament-col-player = Player
tournament-col-points = Points
tournament-col-buchholz = Buchholz
tournament-col-sb = SB
tournament-col-games = Games

tournament-err-unknown = There is no tournament with that number in this server.
tournament-err-none-here = No tournament is open or running in this server. Create one with `/tournament create`.
tournament-err-ambiguous = Several tournaments are on in this server: name one of { $list }.
tournament-err-name = Give the tournament a name of 1 to { $max } characters.
tournament-err-max-players = max_players must be between { $min } and { $max } for this format.
tournament-err-rounds-round-robin = A round robin plays every pairing, so its rounds follow from the players: leave `rounds` out.
tournament-err-games-swiss = games_per_pairing is for round robins; a Swiss tournament never repeats a pairing while it can avoid it.
tournament-err-rounds = rounds must be between 1 and { $max }.
tournament-err-games = games_per_pairing must be 1 or 2.
tournament-err-multiplayer = Tournament games are between two players: 3-4 player rules cannot be used.
tournament-err-bot = Bot accounts cannot take part in tournaments.
tournament-err-already-joined = You are already in this tournament.
tournament-err-full = This tournament is full.
tournament-err-started = This tournament has already started.
tournament-err-finished = This tournament is over.
tournament-err-cancelled = This tournament was cancelled.
tournament-err-open = This tournament has not started yet.
tournament-err-not-joined = You are not in this tournament.
tournament-err-withdrawn = You have already withdrawn from this tournament.
tournament-err-not-creator = Only the tournament's creator or a member with Manage Server can do that.
tournament-err-too-few = A tournament needs at least { $min } players; { $have } joined so far.
tournament-err-too-many-rounds = { $asked } rounds are too many for { $players } players: at most { $max } without rematches. Cancel it and create it again with fewer rounds.
tournament-err-changed = The tournament changed at that very moment; please try again.
