## The point picker (issue 14): the Play button and /move without a point.

picker-play = Play
picker-centre = ◎
picker-title = Game #{ $id }: choose your point ({ $from } to { $to }). Arrows move the window, ◎ returns to the last stone.
picker-stale = This picker is out of date: the game has moved on. Use the Play button under the newest board.
picker-played = You played { $point } in game #{ $id }.
