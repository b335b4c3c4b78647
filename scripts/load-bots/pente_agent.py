"""A Pente agent for scripts/measure-load.sh: reads input.txt, writes output.txt. It looks at
NODES positions a move (argv[1]), whatever its clock says, so its moves are the same on any
machine and its speed is set by NODES: a greedy score for each point near the stones, then for
the best candidates the opponent's best reply, until the budget is spent."""
import sys

COLS = "ABCDEFGHJKLMNOPQRST"
DIRS = [(0, 1), (1, 0), (1, 1), (1, -1)]


class Budget:
    def __init__(self, nodes):
        self.left = nodes

    def spent(self):
        return self.left <= 0


def line_score(board, r, c, me, budget):
    """How good placing `me` at (r, c) is: its lines of stones and their open ends."""
    budget.left -= 1
    score = 0
    for dr, dc in DIRS:
        count, open_ends = 1, 0
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < 19 and 0 <= cc < 19 and board[rr][cc] == me:
                count += 1
                rr, cc = rr + sign * dr, cc + sign * dc
            if 0 <= rr < 19 and 0 <= cc < 19 and board[rr][cc] == ".":
                open_ends += 1
        if count >= 5:
            score += 1_000_000
        else:
            score += (10 ** count) * (open_ends + 1)
    # Captures: me, opp, opp, me in a line.
    opp = "b" if me == "w" else "w"
    for dr, dc in DIRS + [(-a, -b) for a, b in DIRS]:
        cells = [(r + k * dr, c + k * dc) for k in (1, 2, 3)]
        if all(0 <= a < 19 and 0 <= b < 19 for a, b in cells):
            (a1, b1), (a2, b2), (a3, b3) = cells
            if board[a1][b1] == opp and board[a2][b2] == opp and board[a3][b3] == me:
                score += 3000
    return score


def candidates(board, white_second):
    stones = [(r, c) for r in range(19) for c in range(19) if board[r][c] != "."]
    near = set()
    for r, c in stones:
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                rr, cc = r + dr, c + dc
                if 0 <= rr < 19 and 0 <= cc < 19 and board[rr][cc] == ".":
                    near.add((rr, cc))
    if white_second:
        near = {(r, c) for r, c in near if max(abs(r - 9), abs(c - 9)) <= 3}
    return sorted(near) or [(9, 9)]


def value(board, p, me, opp, budget):
    return line_score(board, p[0], p[1], me, budget) + 0.9 * line_score(board, p[0], p[1], opp, budget)


def main():
    budget = Budget(int(sys.argv[1]))
    lines = open("input.txt").read().split("\n")
    me = "w" if lines[0].strip() == "WHITE" else "b"
    opp = "b" if me == "w" else "w"
    captured_by_black = int(lines[2].split(",")[1])
    board = [list(line.strip()) for line in lines[3:22]]
    whites = sum(row.count("w") for row in board) + captured_by_black
    if me == "w" and whites == 0:
        best = (9, 9)
    else:
        cands = candidates(board, me == "w" and whites == 1)
        ranked = sorted(cands, key=lambda p: (-value(board, p, me, opp, budget), p))
        best, best_value = None, None
        for p in ranked:
            if best is not None and budget.spent():
                break
            own = value(board, p, me, opp, budget)
            board[p[0]][p[1]] = me
            replies = [q for q in cands if q != p]
            worst = max((value(board, q, opp, me, budget) for q in replies), default=0)
            board[p[0]][p[1]] = "."
            v = own - 0.8 * worst
            if best is None or v > best_value:
                best, best_value = p, v
    with open("output.txt", "w") as out:
        out.write("%d%s\n" % (19 - best[0], COLS[best[1]]))


main()
