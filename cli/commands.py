"""The commands. Each parses its options and calls the library; no game logic lives here."""

from __future__ import annotations

import sys

import click

from .common import (LEVEL_RANGE, QUICK_BEST, MAX_FIRST, SUMMARY_KEYS, LevelsParam, TextFile,
                     check_out_paths, dask_option, echo_json, games_option, jobs_option,
                     print_rich, resume_option, run_runs, seed_option, write_summary)
from .group import cli


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, help="Show one level in full (1-20).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def levels(level, as_json):
    """The 20 levels: deck, grid, line rule, targets, medals and rulings.

    Without --level, one table row per level; with --level N, the full rule of level N with
    the rulings this project applies where the rulebook is silent.
    """
    from numberup.game.levels import LEVELS, get_level
    from numberup.reports.text import level_dict, level_text, levels_table

    chosen = [get_level(level)] if level else list(LEVELS)
    if as_json:
        echo_json([level_dict(lv) for lv in chosen] if not level else level_dict(chosen[0]))
    elif level:
        click.echo(level_text(level))
    else:
        print_rich(levels_table(chosen))


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, required=True, help="The level (1-20).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per grid.")
@click.argument("files", nargs=-1, required=True, type=TextFile())
def score(level, as_json, files):
    """Score finished grids of a level.

    Each FILE ('-' for stdin) holds one or more grids separated by blank lines: one grid row
    per text line, cards like 3g, '.' for an empty cell, '#' starts a comment. Prints each
    line's points, markers (checkmarkers, chip or minus marker) and value, then the total and
    the medal. All input is read and checked before anything is printed.

    \b
    --json prints [{"level", "total", "medal", "lines": [{"kind": "row"|"col"|"diag",
    "index", "points" (null: no street / no triplet), "markers" (-1 minus, 0 chip,
    N checkmarkers), "value"}]}, ...] in input order.
    """
    from numberup.errors import InputError
    from numberup.game.cards import parse_grid, split_grids
    from numberup.game.scorecard import score as score_grid

    grids = []
    for f in files:
        name, text = f.name, f.read()
        blocks = list(split_grids(text))
        if not blocks:
            raise InputError(f"{name}: no grid found")
        for lineno, block in blocks:
            grids.append((f"{name}, line {lineno}", parse_grid(block, level, source=name, first_line=lineno)))
    results = [(src, score_grid(level, g)) for src, g in grids]
    if as_json:
        echo_json([r.to_dict() for _, r in results])
    else:
        from numberup.reports.text import score_text

        click.echo("\n\n".join(score_text(r, src) for src, r in results))


def game_options(f):
    """Options shared by simulate and compare."""
    for opt in reversed([
        click.option("--level", "-l", "levels", type=LevelsParam(), required=True,
                     help="Level number, list (1,3,5-7) or 'all'."),
        games_option("Games per level and player (2,500: medal odds within about +-2 points)."),
        seed_option("Master seed: game i is dealt from (seed, i) alone."),
        jobs_option("Threads; results do not depend on it."),
        click.option("--out", "-o", type=click.Path(file_okay=False), default=None,
                     help="Run directory: every finished chunk is kept there as it ends, then "
                          "games.parquet (one row per game) and summary.csv "
                          "(docs/run-directory.md)."),
        resume_option(),
        click.option("--log", type=click.Path(dir_okay=False), default=None,
                     help="Write every game (deck and moves) as JSON Lines to this file (with "
                          "--out: at the end, from the chunks kept)."),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
        click.option("--chunk", type=click.IntRange(1), default=None,
                     help="Games per chunk (default: adaptive, ~0.5 s each)."),
        click.option("--first", type=click.IntRange(0, MAX_FIRST), default=0,
                     help="Index of the first game, to split one run across machines."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar on stderr [default: when stderr is a terminal]."),
        dask_option(),
    ]):
        f = opt(f)
    return f


@cli.command()
@game_options
@click.option("--policy", "-p", default="best", show_default=True,
              help="Player spec, e.g. random, greedy, expectimax:depth=2, rollout:n=200, "
                   "best:budget=1 ('best': the level's strongest measured setting that plays "
                   "in 50 ms a game on one core; see 'numberup players').")
def simulate(levels, games, seed, jobs, out, resume, log, as_json, chunk, first, progress, dask,
             policy):
    """Play many seeded games of a level and summarise the results.

    Prints games, mean, sd, percentiles, and the probabilities of losing and of reaching
    bronze, silver and gold, each with a 95% Wilson interval, and games per second. Game i of
    seed S is dealt from (S, i) alone: the same seed gives the same games whatever --jobs or
    --chunk. Ctrl-C stops after the current chunk and keeps (and writes) what is done.

    \b
    Examples:
      numberup simulate --level 14
      numberup simulate --level all --policy random --games 10000 --out runs/random
    """
    from numberup.players.registry import parse_player
    from numberup.runs.simulate import summary_frame

    player = parse_player(policy)
    out = check_out_paths(out, log)
    if progress is None:
        progress = sys.stderr.isatty()
    results, interrupted = run_runs(levels, [player], games, seed, jobs, chunk, first, out, log, progress,
                                    dask, resume)
    frame = summary_frame(results)
    write_summary(out, frame)
    if interrupted:
        click.echo(f"interrupted: kept {sum(r.games for r in results):,} finished games", err=True)
    if as_json:
        echo_json([{k: r[k] for k in SUMMARY_KEYS} for r in frame.to_dict("records")])
    else:
        from numberup.reports.text import summary_table

        print_rich(summary_table(frame.to_dict("records"), title=f"numberup simulate (seed {seed})"))


@cli.command()
@game_options
@click.option("--policy", "-p", "policies", multiple=True, required=True,
              help="Player spec; repeat for each player (the first is the baseline).")
@click.option("--hindsight", "with_hindsight", is_flag=True,
              help="Also solve the same deals with the deck order known ('numberup hindsight'): "
                   "each player's share of the hindsight mean and P(gold | gold reachable).")
def compare(levels, games, seed, jobs, out, resume, log, as_json, chunk, first, progress, dask,
            policies, with_hindsight):
    """Compare players side by side on the same decks.

    Every player plays games 0..N-1 of the seed, so game i is the same deal for all of them.
    Per level and player: mean, medal probabilities with 95% intervals and time per game; and
    for every player after the first, the paired difference of its score against the first
    player's (mean with a 95% interval) and its wins, ties and losses.

    \b
    Example:
      numberup compare --level 8 --policy greedy --policy expectimax --policy rollout:n=200
    """
    from numberup.players.registry import parse_player
    from numberup.runs.simulate import compare_rows

    players = [parse_player(s) for s in policies]
    out = check_out_paths(out, log)
    if progress is None:
        progress = sys.stderr.isatty()
    results, interrupted = run_runs(levels, players, games, seed, jobs, chunk, first, out, log, progress,
                                    dask, resume)
    rows = compare_rows(results)
    if with_hindsight:
        from numberup.analysis.hindsight import versus

        versus(rows, results, seed, first, jobs)
    write_summary(out, __import__("pandas").DataFrame(rows))
    if interrupted:
        click.echo(f"interrupted: kept {sum(r.games for r in results):,} finished games", err=True)
    if as_json:
        keys = SUMMARY_KEYS + ("vs", "diff_mean", "diff_lo", "diff_hi", "wins", "ties", "losses")
        if with_hindsight:
            from numberup.analysis.hindsight import VERSUS_KEYS

            keys += VERSUS_KEYS
        echo_json([{k: row[k] for k in keys} for row in rows])
    else:
        from numberup.reports.text import compare_table

        print_rich(compare_table(rows, title=f"numberup compare (seed {seed}, same decks for every player)"))


class EstimateParam(click.ParamType):
    """A positive count, or 'all' (None)."""

    name = "K|all"

    def convert(self, value, param, ctx):
        if value is None or (isinstance(value, int) and value >= 1):
            return value
        if str(value).strip().lower() == "all":
            return None
        try:
            n = int(value)
        except ValueError:
            self.fail(f"{value!r} is not a whole number or 'all'", param, ctx)
        if n < 1:
            self.fail(f"{n}: choose at least 1 (or 'all')", param, ctx)
        return n


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, required=True, help="The level (1-20).")
@click.option("--card", "-c", default=None, help="The card just drawn, e.g. 3g.")
@click.option("--hand", default=None, help='The hand (levels 18-20), e.g. "1r 2g 3b 4y 5o".')
@click.option("--discards-left", type=click.IntRange(0), default=None,
              help="Discards still allowed (levels 3, 13) [default: the level's, less --discarded].")
@click.option("--discarded", default="", help='Cards already discarded, e.g. "2r 5y".')
@click.option("--policy", "-p", default=QUICK_BEST, show_default=True, metavar="SPEC",
              help="The player that ranks and estimates: each candidate action is played, then "
                   "this player plays the game on ('best': the level's strongest measured "
                   "setting within 32 ms a game, so that an answer takes about 2 s; see "
                   "'numberup players best --level N').")
@click.option("--candidates", "-k", "candidates", type=EstimateParam(), default="6",
              show_default=True,
              help="Actions that get continuations, at most: the player's own choice and the "
                   "best others by its own one-move values ('all': every action). Without "
                   "--continuations, as many as the time pays 16 continuations a round (at "
                   "least 2).")
@click.option("--continuations", "-m", type=click.IntRange(1, 100_000), default=None,
              help="Continuations per candidate, the same for each [default: successive "
                   "halving over about 1 s of work, the close contenders getting the most].")
@seed_option("Seed of the searcher's and the continuations' randomness.")
@jobs_option("Threads for the continuations; the estimates do not depend on it.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.argument("gridfile", type=TextFile())
def advise(level, card, hand, discards_left, discarded, policy, candidates, continuations, seed,
           jobs, as_json, gridfile):
    """Where should this card go? Every legal action for a game on the table, best first, with
    what the player reaches after it.

    GRIDFILE ('-' for stdin) holds the grid as it lies: one row per line, cards like 3g, '.'
    for empty cells. Give the card just drawn with --card, or the hand with --hand on levels
    18-20.

    One player (--policy, by default 'best:budget=0.032') ranks and estimates. Each candidate
    action is played and the player plays the game on from there, the cards to come in random
    orders, the same orders for every action (common random numbers); the actions are ranked by what
    it then reaches: the mean final score (or P(medal), for a player that plays for a medal),
    with P(bronze), P(silver), P(gold), their 95% Monte Carlo intervals and the games behind
    them. The continuations go by successive halving, so the close contenders get the most.
    Each action after the first shows how far it falls behind the first on the same
    continuations; 'close' marks those within noise of it. Following the advice at every move
    is that player, so the estimates are what you reach if you play on as it does.

    \b
    Examples:
      numberup advise --level 14 --card 3g grid.txt
      numberup advise --level 18 --hand "1r 2g 5b 4y 5o" --candidates all --continuations 400 grid.txt
      numberup advise --level 19 --hand "1r 2g 5b 4y 5o" -p best:budget=1 grid.txt
    """
    from numberup.analysis.advise import advice
    from numberup.errors import InputError
    from numberup.runs.simulate import set_jobs

    if (card is None) == (hand is None):
        raise click.UsageError("give exactly one of --card (the card just drawn) or --hand")
    src, text = gridfile.name, gridfile.read()
    try:
        result = advice(level, text, card if card is not None else hand, discarded,
                        discards_left, policy, seed, candidates=candidates,
                        continuations=continuations, jobs=set_jobs(jobs), notify=sys.stderr)
    except InputError as err:
        raise InputError(f"{src}: {err}" if str(err).startswith("grid") else str(err)) from None
    if as_json:
        echo_json(result)
    else:
        from numberup.reports.text import advice_table

        print_rich(advice_table(result))

