#!/usr/bin/env python3
"""Stake & Raid's MINIMAX and ALPHABETA answer, written from docs/rules.md alone.

It shares nothing with the crate: if it and `stakeraid` agree on the golden
cases, the page says enough to write a program that gives the exact answer.

    python3 from_rules.py                      reads ./input.txt, writes ./output.txt
    python3 from_rules.py IN OUT [IN OUT ...]  each IN answered into its OUT
"""
import math
import sys


def read_input(text):
    lines = [line.strip() for line in text.replace("\r", "").split("\n")]
    n = int(lines[0])
    mode = lines[1].upper()
    you = lines[2].upper()
    depth = int(lines[3])
    values = [[int(v) for v in lines[4 + r].split()] for r in range(n)]
    cells = [list(lines[4 + n + r].upper()) for r in range(n)]
    return n, mode, you, depth, values, cells


def other(player):
    return "O" if player == "X" else "X"


def moves(cells, player):
    """Every move in canonical order: Stakes row-major, then Raids row-major."""
    n = len(cells)
    empty = [(r, c) for r in range(n) for c in range(n) if cells[r][c] == "."]
    stakes = [(r, c, "Stake") for r, c in empty]
    raids = [(r, c, "Raid") for r, c in empty
             if any(cells[y][x] == player for y, x in neighbours(n, r, c))]
    return stakes + raids


def neighbours(n, r, c):
    for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= y < n and 0 <= x < n:
            yield y, x


def play(cells, move, player):
    r, c, kind = move
    after = [row[:] for row in cells]
    after[r][c] = player
    if kind == "Raid":
        for y, x in neighbours(len(cells), r, c):
            if after[y][x] == other(player):
                after[y][x] = player
    return after


def score(cells, values, you):
    total = 0
    for row_cells, row_values in zip(cells, values):
        for cell, value in zip(row_cells, row_values):
            if cell == you:
                total += value
            elif cell != ".":
                total -= value
    return total


def full(cells):
    return all(cell != "." for row in cells for cell in row)


def minimax(cells, to_move, depth, limit, values, you):
    if depth == limit or full(cells):
        return score(cells, values, you)
    results = (minimax(play(cells, m, to_move), other(to_move), depth + 1, limit, values, you)
               for m in moves(cells, to_move))
    return max(results) if to_move == you else min(results)


def alphabeta(cells, to_move, depth, limit, values, you, alpha, beta):
    if depth == limit or full(cells):
        return score(cells, values, you)
    if to_move == you:
        v = -math.inf
        for m in moves(cells, to_move):
            v = max(v, alphabeta(play(cells, m, to_move), other(to_move), depth + 1, limit,
                                 values, you, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for m in moves(cells, to_move):
        v = min(v, alphabeta(play(cells, m, to_move), other(to_move), depth + 1, limit,
                             values, you, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def answer(text):
    n, mode, you, limit, values, cells = read_input(text)
    best, best_value, alpha = None, -math.inf, -math.inf
    for m in moves(cells, you):
        after = play(cells, m, you)
        if mode == "MINIMAX":
            value = minimax(after, other(you), 1, limit, values, you)
        else:
            value = alphabeta(after, other(you), 1, limit, values, you, alpha, math.inf)
            alpha = max(alpha, value)
        if value > best_value:
            best, best_value = m, value
    r, c, kind = best
    board = play(cells, best, you)
    lines = [f"{chr(ord('A') + c)}{r + 1} {kind}"] + ["".join(row) for row in board]
    return "".join(line + "\n" for line in lines)


def main(args):
    pairs = list(zip(args[::2], args[1::2])) or [("input.txt", "output.txt")]
    for source, target in pairs:
        with open(source) as f:
            text = f.read()
        with open(target, "w", newline="\n") as f:
            f.write(answer(text))


if __name__ == "__main__":
    main(sys.argv[1:])
