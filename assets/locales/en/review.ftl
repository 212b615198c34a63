## Engine review (issue 14): /review and the Review button.

cmd-review = review
cmd-review-desc = Review a finished game with the engine: a win-chance chart and the turning points
cmd-review-game = game
cmd-review-game-desc = Which finished game (its number)
review-button = Review
review-progress = Analysing game #{ $id }… { $done }/{ $total }
review-title = **Review of game #{ $id }** (by the engine)
review-player = { $name }: accuracy { $accuracy }% · inaccuracies { $inaccuracies } · mistakes { $mistakes } · blunders { $blunders }
review-turning-points = Turning points:
review-no-turning-points = No turning point: nobody gave away 20 points of win chance in one move.
review-turning-point = Move { $number }, { $point } by { $name } ({ $class }), changed { $colour }'s chance from { $before }% to { $after }%
review-better = ; { $point } kept it at { $before }%
review-class-mistake = a mistake
review-class-blunder = a blunder
review-method = -# Every position searched at a fixed node budget; inaccuracy, mistake and blunder: a loss of 10, 20 and 30 points of win chance.
review-chart-title = Black's chance of winning
review-chart-move = Move
review-in-progress = This game is still being played: it can be reviewed once it is over.
review-two-players = Only two-player games can be reviewed: the engine judges two colours only.
review-busy = This game is being analysed right now: its review will appear in that message.
review-failed = The review of game #{ $id } could not be finished. Ask again with /review.
