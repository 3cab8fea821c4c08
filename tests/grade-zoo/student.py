"""A Stake & Raid homework written as many students write it, unlike
tests/grade-fixtures/: plain functions over a board of lists, a separate
minimax and alpha-beta, depth counted down to 0 with the full board tested
first, and only the Raids that take something listed (a Raid that takes
nothing is the Stake on its cell).

Run as a program, it is correct. The zoo's other programs import it and
change one thing each (the BUG_* switches below), the way a homework goes
wrong.
"""

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

ROOT_GE = False  # the root keeps a move as good as the best so far (>=)
RAIDS_FIRST = False  # Raids listed before Stakes
ALPHABETA_SHORT = False  # alpha-beta stops at depth 1 instead of 0
LEAF_FOR_MOVER = False  # a leaf scored for the side to move there
PIECE_ONE = False  # a piece counted 1, whatever its cell's value
DIAGONAL_RAID = False  # a Raid also takes the diagonal neighbours
MINIMAX_ALWAYS = False  # ALPHABETA answered by plain minimax (still right)
STRICT_CUTS = False  # alpha-beta cuts on > and < only (still right)

INF = float("inf")


def read_input():
    with open("input.txt") as f:
        lines = [line.strip() for line in f if line.strip()]
    n = int(lines[0])
    game = {
        "n": n,
        "mode": lines[1],
        "me": lines[2],
        "depth": int(lines[3]),
        "values": [list(map(int, lines[4 + r].split())) for r in range(n)],
    }
    board = [list(lines[4 + n + r]) for r in range(n)]
    return game, board


def opponent(p):
    return "O" if p == "X" else "X"


def evaluate(game, board, player):
    total = 0
    for r in range(game["n"]):
        for c in range(game["n"]):
            cell = board[r][c]
            if cell == ".":
                continue
            worth = 1 if PIECE_ONE else game["values"][r][c]
            total += worth if cell == player else -worth
    return total


def neighbours(n, r, c):
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if DIAGONAL_RAID:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def legal_moves(game, board, player):
    n, enemy = game["n"], opponent(player)
    stakes, raids = [], []
    for r in range(n):
        for c in range(n):
            if board[r][c] != ".":
                continue
            stakes.append(("Stake", r, c))
            near = neighbours(n, r, c)
            orthogonal = [(y, x) for y, x in near if abs(y - r) + abs(x - c) == 1]
            if any(board[y][x] == player for y, x in orthogonal) and any(
                board[y][x] == enemy for y, x in near
            ):
                raids.append(("Raid", r, c))
    return raids + stakes if RAIDS_FIRST else stakes + raids


def apply_move(game, board, move, player):
    kind, r, c = move
    new = [row[:] for row in board]
    new[r][c] = player
    if kind == "Raid":
        for y, x in neighbours(game["n"], r, c):
            if new[y][x] == opponent(player):
                new[y][x] = player
    return new


def full(board):
    return not any("." in row for row in board)


def leaf_value(game, board, to_move):
    return evaluate(game, board, to_move if LEAF_FOR_MOVER else game["me"])


def minimax(game, board, depth, to_move):
    if full(board):
        return leaf_value(game, board, to_move)
    if depth == 0:
        return leaf_value(game, board, to_move)
    values = [
        minimax(game, apply_move(game, board, m, to_move), depth - 1, opponent(to_move))
        for m in legal_moves(game, board, to_move)
    ]
    return max(values) if to_move == game["me"] else min(values)


def alphabeta(game, board, depth, to_move, alpha, beta):
    if full(board):
        return leaf_value(game, board, to_move)
    if depth == 0 or (ALPHABETA_SHORT and depth <= 1):
        return leaf_value(game, board, to_move)
    if to_move == game["me"]:
        best = -INF
        for m in legal_moves(game, board, to_move):
            child = apply_move(game, board, m, to_move)
            best = max(best, alphabeta(game, child, depth - 1, opponent(to_move), alpha, beta))
            if best > beta if STRICT_CUTS else best >= beta:
                return best
            alpha = max(alpha, best)
        return best
    best = INF
    for m in legal_moves(game, board, to_move):
        child = apply_move(game, board, m, to_move)
        best = min(best, alphabeta(game, child, depth - 1, opponent(to_move), alpha, beta))
        if best < alpha if STRICT_CUTS else best <= alpha:
            return best
        beta = min(beta, best)
    return best


def choose(game, board):
    me, depth = game["me"], game["depth"]
    best_move, best_value = None, -INF
    for m in legal_moves(game, board, me):
        child = apply_move(game, board, m, me)
        if game["mode"] == "ALPHABETA" and not MINIMAX_ALWAYS:
            v = alphabeta(game, child, depth - 1, opponent(me), best_value, INF)
        else:
            v = minimax(game, child, depth - 1, opponent(me))
        if best_move is None or (v >= best_value if ROOT_GE else v > best_value):
            best_move, best_value = m, v
    return best_move


def main():
    game, board = read_input()
    move = choose(game, board)
    after = apply_move(game, board, move, game["me"])
    kind, r, c = move
    with open("output.txt", "w") as f:
        f.write("%s%d %s\n" % (COLUMNS[c], r + 1, kind))
        for row in after:
            f.write("".join(row) + "\n")


if __name__ == "__main__":
    main()
