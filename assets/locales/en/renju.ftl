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
err-rules-renju-opening-preset = Taraguchi-10 and Soosõrv-8 are Renju openings: choose the game Renju for them.
err-opening-area = { $point } is outside the opening area: move { $move } goes within the central { $side }×{ $side } square.
err-offer-count = Offer exactly { $expected } fifth moves (you gave { $given }).
err-offer-repeated = { $point } is offered twice.
err-offer-symmetric = { $a } and { $b } are symmetric: they make the same position. Offer fifth moves that differ.
err-not-offered = { $point } is not one of the offered fifth moves.
rules-opening-taraguchi-10 = Opening (Taraguchi-10): the first player (tentative black) places move 1 on the centre; move 2 goes within the central 3×3, move 3 within 5×5 and move 4 within 7×7, each placed by whoever then has that colour, and after each the other player may swap colours. After move 4 the player with black either may swap, after which black places move 5 within 9×9 and white may swap again, or offers 10 fifth moves anywhere (no two symmetric), of which white chooses one. White then plays move 6 anywhere.
rules-opening-soosorv-8 = Opening (Soosõrv-8): the first player (tentative black) places moves 1 to 3 (the centre, within 3×3, within 5×5: one of the 26 openings); the other player may swap. White places move 4 anywhere and declares a number from 1 to 8; black may swap. Black then offers that many fifth moves (no two symmetric), and white chooses one and plays move 6.
turn-move-area = { $player }, your move ({ $colour }), within the central { $side }×{ $side } square.
turn-swap = { $player }: swap colours, or keep yours?
turn-swap-or-offer = { $player }: swap colours, keep yours and place move 5 within 9×9, or offer 10 fifth moves?
turn-declare = { $player }: how many fifth moves must black offer (1 to 8)?
turn-offer = { $player }, offer { $count } fifth moves for black (no two symmetric).
turn-select = { $player }, choose one of the offered fifth moves; then play move 6.
move-swapped = { $player } swapped colours.
move-kept = { $player } kept their colour.
move-declared = { $player } declared { $count } fifth { $count ->
    [one] move
   *[other] moves
}.
move-offered = { $player } offered { $count } fifth { $count ->
    [one] move
   *[other] moves
}: { $points }.
move-chose-fifth = { $player } chose { $point } as the fifth move.
choice-game-renju = Renju (black's forbidden points)
choice-opening-taraguchi-10 = Taraguchi-10 (Renju)
choice-opening-soosorv-8 = Soosõrv-8 (Renju)
button-renju-swap = Swap colours
button-renju-keep = Keep my colour
select-renju-declare = Number of fifth moves black must offer
select-renju-offer = Pick { $count } fifth moves to offer
turn-offer-how = Pick the fifth moves in the menu, or type any others with `/move at:offer:H8,J9,...`.
err-renju-bad-choice = That choice cannot be read. Use the buttons and menus under the latest board.
