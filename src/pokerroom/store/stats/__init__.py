"""Issue 19: each player's statistics per game (hands, VPIP, PFR, 3-bet, aggression factor,
went to and won at showdown, bb/100) and his graph, counted from the stored hands'
public facts and folded forward incrementally, never on the journal's write path.

- counting.py: what one stored hand adds to each of its players' figures (the definitions);
- graph.py: a player's graph of chips won, kept to a bounded number of points;
- fold.py: ``PlayerStats``, the fold of newly committed hands into the counters and the
  reads of a player's counters and graph;
- report.py: the counters as the figures a page shows (percentages, AF, bb/100).
"""

from pokerroom.store.stats.counting import CountedHand, Figures, NotCountable, count_hand
from pokerroom.store.stats.fold import Counters, PlayerStats
from pokerroom.store.stats.graph import MAX_POINTS, Graph
from pokerroom.store.stats.report import by_game, by_stakes, figures_of

__all__ = [
    "MAX_POINTS",
    "CountedHand",
    "Counters",
    "Figures",
    "Graph",
    "NotCountable",
    "PlayerStats",
    "by_game",
    "by_stakes",
    "count_hand",
    "figures_of",
]
