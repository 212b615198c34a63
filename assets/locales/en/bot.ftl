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
