## Renju (issue 13): forbidden points, its rules and its openings

preset-renju = Renju
renju-shape-double_three = a double three
renju-shape-double_four = a double four
renju-shape-overline = an overline
err-forbidden-renju = { $point } is a forbidden point for black: it would make { $shape }. In Renju black may not make a double three, a double four or an overline (six or more), unless the move makes exactly five.
err-rules-renju-fixed = Renju fixes { $key }: two players, five in a row, no captures, and its own overline rule.
err-rules-renju-opening = That opening is not played in Renju: choose taraguchi-10, soosorv-8, swap2 or none.
rules-renju-win = Win: five in a row. Black (who moves first) wins only with exactly five; white wins with five or more.
rules-renju-forbidden = Black may not play a forbidden point: one that makes a double three (two open threes at once), a double four (two fours at once, also on one line) or an overline (six or more in a row). A move that makes exactly five wins even if it also makes one of these. White has no restrictions, and wins by forcing black into a forbidden point.
rules-renju-three = A three counts only if it can become an open four by a move that is itself allowed.
