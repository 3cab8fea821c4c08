"""A second correct Stake & Raid homework, written otherwise than
textbook.py: the board one flat list of cells, plain functions, and the
search as negamax (alpha-beta in ALPHABETA mode, fail-soft), every value
from the side to move's point of view. Depth is counted up from the root
(ply 0) to the depth asked.

Run as a program, it is the correct answer. The negamax_*.py fixtures
replace one function each (this module's names are looked up when called),
the way a homework goes wrong.
"""

INF = float("inf")
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read_input(path="input.txt"):
    with open(path) as f:
        rows = [line.split() for line in f.read().splitlines() if line.strip()]
    n = int(rows[0][0])
    game = {
        "n": n,
        "mode": rows[1][0],
        "me": rows[2][0],
        "depth": int(rows[3][0]),
        "values": [int(v) for row in rows[4 : 4 + n] for v in row],
    }
    cells = [ch for row in rows[4 + n : 4 + 2 * n] for ch in row[0]]
    return game, cells


def opponent(p):
    return "O" if p == "X" else "X"


def around(n, i):
    r, c = divmod(i, n)
    out = []
    if r > 0:
        out.append(i - n)
    if r < n - 1:
        out.append(i + n)
    if c > 0:
        out.append(i - 1)
    if c < n - 1:
        out.append(i + 1)
    return out


def can_raid(game, cells, p, i):
    """A Raid needs one of p's own pieces beside the cell."""
    return any(cells[j] == p for j in around(game["n"], i))


def generate(game, cells, p):
    """Every move of p: the Stakes in reading order, then the Raids."""
    empty = [i for i, ch in enumerate(cells) if ch == "."]
    stakes = [("Stake", i) for i in empty]
    raids = [("Raid", i) for i in empty if can_raid(game, cells, p, i)]
    return stakes + raids


def taken(game, cells, p, move):
    """The cells a move turns over."""
    kind, i = move
    if kind == "Stake":
        return []
    return [j for j in around(game["n"], i) if cells[j] == opponent(p)]


def result(game, cells, p, move):
    after = cells[:]
    after[move[1]] = p
    for j in taken(game, cells, p, move):
        after[j] = p
    return after


def evaluate(game, cells, p):
    """The game score for p: p's cells' values minus the other side's."""
    total = 0
    for v, ch in zip(game["values"], cells):
        if ch == p:
            total += v
        elif ch != ".":
            total -= v
    return total


def leaf(game, cells, ply):
    return ply == game["depth"] or "." not in cells


def negamax(game, cells, p, ply, alpha, beta):
    """The value of cells for p, who is to move, ply plies below the root."""
    if leaf(game, cells, ply):
        return evaluate(game, cells, p)
    best = -INF
    for move in generate(game, cells, p):
        v = -negamax(game, result(game, cells, p, move), opponent(p), ply + 1, -beta, -alpha)
        best = max(best, v)
        if game["mode"] == "ALPHABETA":
            if best >= beta:
                return best
            alpha = max(alpha, best)
    return best


def better(v, best):
    """A later root move replaces the best only when strictly better."""
    return v > best


def first_best(moves):
    """The root's choice and best value before any move is searched: none,
    at minus infinity."""
    return None, -INF


ROOT_PLY = 0  # the root's ply; its moves lead to ROOT_PLY + 1


def decide(game, cells):
    me = game["me"]
    moves = generate(game, cells, me)
    choice, best = first_best(moves)
    for move in moves:
        after = result(game, cells, me, move)
        v = -negamax(game, after, opponent(me), ROOT_PLY + 1, -INF, -best)
        if choice is None or better(v, best):
            choice, best = move, v
    return choice


def written(game, cells, move):
    kind, i = move
    after = result(game, cells, game["me"], move)
    n = game["n"]
    lines = ["%s%d %s" % (COLUMNS[i % n], i // n + 1, kind)]
    lines += ["".join(after[r * n : (r + 1) * n]) for r in range(n)]
    return "\n".join(lines) + "\n"


def main():
    game, cells = read_input()
    text = written(game, cells, decide(game, cells))
    with open("output.txt", "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
