"""``analyse_many``: one answer per position, in order, each the answer of
the position analysed alone; input texts answered as ``solve_text`` answers
them; a failed position keeps its place; a stop answers every position;
the interpreter is free while it runs."""

import json
import pickle
import random
import threading
import time

import pytest
import stakeraid

from conftest import SPEC_EXAMPLES, random_position


def timeless(analysis):
    """The analysis as JSON without its wall time: on one thread, all the
    rest is the same from run to run."""
    data = json.loads(analysis.to_json())
    del data["time_us"]
    return data


def assert_as_alone(answer, position, mode="ALPHABETA", depth=None, batch_threads=0):
    """Asserts that ``answer``, from a batch on ``batch_threads`` threads, is
    ``position`` analysed alone on one thread. A batch on one thread gives
    exactly that, node count included. On more, a search may borrow the
    threads left idle at the batch's end: the move, value, principal
    variation and depth are still the same, but the node count and the
    bounds on the other moves are those of a search on several threads, so
    each move's value is checked against its exact value instead (MINIMAX:
    equal where exact, at least it where an upper bound)."""
    depth = depth or position.empty_count
    alone = stakeraid.analyse(position, mode, depth=depth, threads=1)
    got, expected = timeless(answer), timeless(alone)
    if batch_threads == 1:
        assert got == expected
        return
    for data in (got, expected):
        del data["nodes"]
    moves = got.pop("moves")
    assert [m["move"] for m in moves] == [m["move"] for m in expected.pop("moves")]
    assert got == expected
    truth = timeless(stakeraid.analyse(position, "MINIMAX", depth=depth, threads=1))["moves"]
    assert [m["move"] for m in truth] == [m["move"] for m in moves]
    for move, exact in zip(moves, truth):
        if move["bound"] == "exact":
            assert move["value"] == exact["value"], move
        else:
            assert move["bound"] == "upper" and move["value"] >= exact["value"], move


def random_batch(seed, count):
    rng = random.Random(seed)
    positions = []
    for i in range(count):
        n = 1 + i % 9
        positions.append(random_position(rng, n, rng.randint(1, n * n)))
    return positions


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_every_answer_is_the_position_analysed_alone(threads):
    positions = random_batch(threads, 150)
    for mode in ("ALPHABETA", "MINIMAX"):
        answers = stakeraid.analyse_many(positions, mode, depth=3, threads=threads)
        assert len(answers) == len(positions)
        for position, answer in zip(positions, answers):
            assert_as_alone(answer, position, mode, 3, threads)


def test_input_texts_are_answered_as_solve_text_answers_them():
    rng = random.Random(5)
    texts = [input_text for input_text, _ in SPEC_EXAMPLES]
    for i in range(30):
        position = random_position(rng, 2 + i % 5, 1 + i % 7)
        texts.append(position.to_input(["MINIMAX", "ALPHABETA"][i % 2], depth=1 + i % 4))
    answers = stakeraid.analyse_many(texts, "MINIMAX", depth=1)
    for text, answer in zip(texts, answers):
        lines = text.splitlines()
        # The text's own mode and depth, not the arguments'.
        assert (answer.mode, answer.requested_depth) == (
            lines[1], min(int(lines[3]), stakeraid.Position.from_input(text).empty_count))
        assert answer.output_text() == stakeraid.solve_text(text, threads=1)
    for (_, expected), answer in zip(SPEC_EXAMPLES, answers):
        assert answer.output_text() == expected


def test_without_a_depth_or_a_time_each_position_is_solved_to_the_end():
    rng = random.Random(9)
    positions = [random_position(rng, 2 + i % 5, 1 + i % 9) for i in range(20)]
    for position, answer in zip(positions, stakeraid.analyse_many(positions)):
        assert answer.requested_depth == position.empty_count and answer.exact
        assert_as_alone(answer, position)


def test_a_failed_position_keeps_its_place_and_the_others_are_answered():
    good = random_batch(3, 6)
    full = stakeraid.Position([[1, 2], [3, 4]], ["XO", "OX"])
    competition = SPEC_EXAMPLES[0][0].replace("MINIMAX", "COMPETITION").replace("\n2\n", "\n9.5\n", 1)
    batch = [good[0], full, good[1], "3\nMINIMAX\n", good[2], competition, 7, *good[3:]]
    with pytest.raises(stakeraid.BatchError, match="4 of 10 positions failed; the first, "
                                                  "position 1: the board is full") as raised:
        stakeraid.analyse_many(batch, depth=2)
    assert isinstance(raised.value, ValueError)
    assert raised.value.failed == [1, 3, 5, 6]
    returned = stakeraid.analyse_many(batch, depth=2, errors="return")
    for results in (raised.value.results, returned):
        assert len(results) == len(batch)
        for i, result in enumerate(results):
            if i in (1, 3, 5, 6):
                assert type(result) is ValueError, (i, result)
            else:
                assert_as_alone(result, batch[i], depth=2)
    assert "line" in str(returned[3])
    assert "COMPETITION" in str(returned[5])
    assert "expected a Position or the text of an input.txt, got int" in str(returned[6])


@pytest.mark.parametrize("arguments, message", [
    (dict(errors="ignore"), "errors must be"),
    (dict(depth=0), "depth must be 1 to 4294967295, got 0"),
    (dict(threads=-1), "threads must be"),
    (dict(time=-1.0), "time must be"),
    (dict(table_budget=0), "table_budget must be"),
    (dict(mode="COMPETITION"), "COMPETITION"),
])
def test_bad_arguments_are_refused_before_any_search(arguments, message):
    with pytest.raises(ValueError, match=message):
        stakeraid.analyse_many(random_batch(1, 3), **arguments)


def test_an_empty_batch_and_any_iterable():
    assert stakeraid.analyse_many([]) == []
    positions = random_batch(4, 5)
    answers = stakeraid.analyse_many((p for p in positions), depth=2)
    assert len(answers) == len(positions)
    for position, answer in zip(positions, answers):
        assert_as_alone(answer, position, depth=2)


def deep_batch(count):
    """Full solves of 5x5 positions with 20 empty cells: seconds each."""
    rng = random.Random(12)
    return [random_position(rng, 5, 20) for _ in range(count)]


def test_a_stop_token_stops_the_whole_batch_and_every_position_is_answered():
    positions = deep_batch(12)
    token = stakeraid.StopToken()
    threading.Timer(0.3, token.stop).start()
    started = time.monotonic()
    answers = stakeraid.analyse_many(positions, threads=2, stop=token)
    assert time.monotonic() - started < 10
    assert len(answers) == len(positions)
    for answer in answers:
        assert answer.stopped and not answer.exact and answer.depth >= 1
    # A stopped token stops the next batch at once: depth 1 each.
    answers = stakeraid.analyse_many(positions, stop=token)
    assert [a.depth for a in answers] == [1] * len(positions)
    token.reset()
    assert stakeraid.analyse_many(positions[:1], depth=3, stop=token)[0].exact


def test_the_interpreter_runs_other_threads_during_a_batch():
    positions = deep_batch(4)
    token = stakeraid.StopToken()
    ticks = []

    def tick():
        while len(ticks) < 5:
            ticks.append(time.monotonic())
            time.sleep(0.02)
        token.stop()

    ticker = threading.Thread(target=tick)
    ticker.start()
    answers = stakeraid.analyse_many(positions, threads=1, stop=token)
    ticker.join()
    # Only the other thread stops it: it ran while the batch did.
    assert all(a.stopped for a in answers)


def test_an_analysis_pickles():
    answer = stakeraid.analyse_many(random_batch(2, 1), depth=2)[0]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(answer, protocol))
        assert type(again) is stakeraid.Analysis
        assert again.to_json() == answer.to_json() and again == answer, protocol
    # Equal when every field is: a different node count is another analysis.
    other = json.loads(answer.to_json())
    other["nodes"] += 1
    assert stakeraid.Analysis.from_json(json.dumps(other)) != answer
    with pytest.raises(ValueError):
        stakeraid.Analysis.from_json("{}")
