"""The hindsight command: what a player who knows the deck order reaches on each deal."""

from __future__ import annotations

import sys

import click

from .common import (QUICK_BEST, LevelsParam, check_out_paths, echo_json, jobs_option, progress_bar,
                     seed_option)
from .group import cli


@cli.command()
@click.option("--level", "-l", "levels", type=LevelsParam(), required=True,
              help="Level number, list (1,3,5-7) or 'all'.")
@click.option("--games", "-n", type=click.IntRange(1, 10**6), default=200, show_default=True,
              help="Deals per level: games 0..N-1 of the seed, the decks simulate deals.")
@seed_option("Master seed: game i is dealt from (seed, i) alone, as in simulate and compare.")
@jobs_option("Threads; the found results do not depend on it.")
@click.option("--width", "-w", type=click.IntRange(1, 10_000), default=None,
              help="States the beam search keeps per card; three times as many children are "
                   "finished greedily to rank them [default: 40; 16 on 5x5 and 12 on 6x6 with a hand of five].")
@click.option("--pilot", default=QUICK_BEST, show_default=True, metavar="SPEC",
              help="The player whose playouts run the nested Monte Carlo search beside the "
                   f"beam ({QUICK_BEST}: its setting of the level, one move deep); the search "
                   "is the better of the two.")
@click.option("--pilot-width", type=click.IntRange(1, 1_000), default=4, show_default=True,
              help="Actions the nested search finishes with the pilot at each decision.")
@click.option("--pilot-restarts", type=click.IntRange(1, 1_000), default=3, show_default=True,
              help="Nested searches per deal, each with its own random stream for the "
                   "pilot; the best game of them is kept.")
@click.option("--no-pilot", is_flag=True, help="The beam search alone, no nested search.")
@click.option("--out", "-o", type=click.Path(file_okay=False), default=None,
              help="Directory for summary.csv (one row per level) and deals.csv (one row per "
                   "deal: game, seed, found, bound).")
@click.option("--log", type=click.Path(dir_okay=False), default=None,
              help="Write every found game (deck and moves) as JSON Lines, simulate --log's "
                   "format, to this file.")
@click.option("--warm", "warm_logs", type=click.Path(dir_okay=False), multiple=True,
              help="A simulate/compare --log of the same seed: each deal's best game in it "
                   "starts the search too, so found is never below it (repeatable).")
@click.option("--warm-player", default=QUICK_BEST, show_default=True, metavar="SPEC",
              help="The player whose own game on each deal starts the search (played as "
                   "simulate plays it).")
@click.option("--no-warm", is_flag=True,
              help="No warm-start player: the search alone (and any --warm log).")
@click.option("--lp-passes", type=click.IntRange(0, 10_000), default=0, show_default=True,
              help="Also bound each deal by the rows-and-columns LP (up to this many column-"
                   "generation passes; 20-40 close it on 6x6 levels, 0.3-10 s a deal; needs "
                   "scipy: pip install 'numberup[exact]'). A pass limit, not a time limit: the "
                   "same bound on any machine. 0: only the cheap bounds.")
@click.option("--exact", "exact_seconds", type=click.FloatRange(0, 86_400), default=0,
              show_default=True, metavar="SECONDS",
              help="Also solve each deal's exact model (a constraint programme of every rule, "
                   "every level; OR-Tools CP-SAT: pip install 'numberup[exact]') for up to this "
                   "much of the solver's deterministic time on one thread (about a second of a "
                   "typical core each: the same answer whatever --jobs and the machine's speed, with the "
                   "same OR-Tools), started from the found "
                   "game: a better game it finds is kept (found_by exact), its proven bound "
                   "tightens the bound, and where it proves the optimum the deal is solved "
                   "(on level 4 the bound also counts each line's two colours apart). "
                   "0: no exact model.")
@click.option("--layout", "layout_seconds", type=click.FloatRange(0, 86_400), default=0,
              show_default=True, metavar="SECONDS",
              help="Levels 6-10: also lay each deal's placed cards out as well as CP-SAT can in "
                   "this many seconds of its deterministic time (order and adjacency dropped, "
                   "the setup cards on the centre; pip install 'numberup[exact]'), and play "
                   "that layout in the deal's order where some arrangement of its rows and "
                   "columns can be played (found_by layout); the layout's proven bound counts "
                   "too. Runs before --exact. 0: no layout.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def hindsight(levels, games, seed, jobs, width, pilot, pilot_width, pilot_restarts, no_pilot, out,
              log, warm_logs, warm_player, no_warm, lp_passes, exact_seconds, layout_seconds,
              as_json, progress):
    """The best result found by a player who knows the whole deck order in advance.

    For game i of the seed (the same deck simulate and compare deal) a beam search and a
    nested Monte Carlo search with a strong player's playouts (--pilot), both over the real
    rules (draw order, adjacency, setup, discards, hand of five), find legal games; the
    search's result is the better of the two;
    found is the better of it and the warm game (by default best's own game on the deal,
    --warm-player; and any --warm log's), so it is a floor of what perfect foresight reaches
    on that deal and never below the warm game. The search alone and the warm games are
    reported apart. With --exact each deal's exact model (every rule, CP-SAT) also runs,
    started from the found game: it may find a better game, and it may prove the optimum.
    Where a proven upper bound is known (from relaxations that drop the order and adjacency
    rules, or from the exact model) it is reported too; it is never a heuristic figure.

    Per level: mean found result, P(found >= bronze/silver/gold) with 95% intervals ("with
    foresight, gold is reachable on at least X% of deals") and, where bounds exist, the mean
    bound and P(bound >= gold) ("at most Y%").

    \b
    --json prints one object per level: found mean, p_bronze/p_silver/p_gold (+ _lo/_hi),
    search_mean, search_p_gold, warm, warm_mean, warm_p_gold, search_at_least_warm,
    found_by_warm, bound_proven, bound_mean, bound_p_gold (+ _hi), seconds_per_deal.
    With --exact also exact_deals, exact_optimal, exact_hit_limit, found_by_exact,
    exact_seconds_per_deal; with --layout layout_deals, layout_played, found_by_layout; and
    deals, one object per deal with the columns of deals.csv.
    deals.csv: level, game, found, found_by (search, warm, layout, exact), search (the better
    of beam and pilot), beam, pilot, warm, bound, bound_proven, optimal, exact (optimal, limit,
    or empty), exact_seconds, layout (the played layout's result, empty where none).

    \b
    Examples:
      numberup hindsight --level 14 --games 100
      numberup hindsight --level 19 --games 200 --warm runs/compare.jsonl
      numberup hindsight --level all --games 500 --seed 2026 --out runs/hindsight
      numberup hindsight --level 3 --games 20 --exact 10
      numberup hindsight --level 8 --games 20 --layout 10
    """
    from numberup.analysis.hindsight import run_levels
    from numberup.analysis.warm import read_log
    from numberup.reports.hindsight import report_lines
    from numberup.players.registry import parse_player

    warm = [] if no_warm else [parse_player(warm_player).spec]
    pilot = None if no_pilot else parse_player(pilot).spec
    for path in warm_logs:  # read and checked before anything is written
        warm.append(read_log(path, levels, seed))
    if lp_passes:
        from numberup.analysis.partition import _linprog

        _linprog()  # a missing scipy is one line, before anything is written
    if exact_seconds or layout_seconds:
        from numberup.analysis.exact import _cp_model

        _cp_model()  # a missing OR-Tools is one line, before anything is written
    out = check_out_paths(out, log)
    if progress is None:
        progress = sys.stderr.isatty()
    with progress_bar(progress) as bar:
        runs, interrupted = run_levels(levels, seed, games, jobs, width, out, log, bar,
                                       warm=warm or None, lp_passes=lp_passes, pilot=pilot,
                                       pilot_width=pilot_width, pilot_restarts=pilot_restarts,
                                       exact_seconds=exact_seconds,
                                       layout_seconds=layout_seconds)
    if interrupted:
        click.echo(f"interrupted: kept {sum(len(r.found) for r in runs):,} solved deals", err=True)
    rows = [r.summary() for r in runs]
    if as_json:
        import json

        for row, run in zip(rows, runs):  # and per deal, as deals.csv has them
            row["deals"] = json.loads(run.deals().drop(columns="level").to_json(orient="records"))
        echo_json(rows)
    else:
        for line in report_lines(rows, seed):
            click.echo(line)
