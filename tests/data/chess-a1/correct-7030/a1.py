"""
A correct solution of the chess assignment with CSSE7030's special moves (a1, 2021), written for
arbiter's tests: promotion, castling and en passant as docs/games/chess-a1/RULES.md reads the
assignment's Section 4.6.
"""
from a1_support import *


def initial_state():
    back = "".join(BLACK_PIECES[:BOARD_SIZE])
    return (back, BLACK_PAWN * BOARD_SIZE) + (EMPTY * BOARD_SIZE,) * 4 + (
        WHITE_PAWN * BOARD_SIZE, back.upper())


def print_board(board):
    for i, row in enumerate(board):
        print(row + "  " + str(BOARD_SIZE - i))
    print("\nabcdefgh")


def square_to_position(square):
    return (BOARD_SIZE - int(square[1]), "abcdefgh".index(square[0].lower()))


def process_move(user_input):
    start, end = user_input.split(" ")
    return (square_to_position(start), square_to_position(end))


def change_position(board, position, character):
    row, col = position
    new_row = board[row][:col] + character + board[row][col + 1:]
    return board[:row] + (new_row,) + board[row + 1:]


def clear_position(board, position):
    return change_position(board, position, EMPTY)


def update_board(board, move):
    start, end = move
    piece = piece_at_position(start, board)
    return clear_position(change_position(board, end, piece), start)


def is_current_players_piece(piece, whites_turn):
    pieces = WHITE_PIECES if whites_turn else BLACK_PIECES
    return piece != EMPTY and piece in pieces


def is_move_valid(move, board, whites_turn):
    start, end = move
    if out_of_bounds(start) or out_of_bounds(end) or start == end:
        return False
    if not is_current_players_piece(piece_at_position(start, board), whites_turn):
        return False
    if is_current_players_piece(piece_at_position(end, board), whites_turn):
        return False
    if end not in get_possible_moves(start, board):
        return False
    return not is_in_check(update_board(board, move), whites_turn)


def can_move(board, whites_turn):
    for row in range(BOARD_SIZE):
        for col in range(BOARD_SIZE):
            for end in get_possible_moves((row, col), board):
                if is_move_valid(((row, col), end), board, whites_turn):
                    return True
    return False


def is_stalemate(board, whites_turn):
    return not is_in_check(board, whites_turn) and not can_move(board, whites_turn)


def check_game_over(board, whites_turn):
    if is_in_check(board, whites_turn):
        if not can_move(board, whites_turn):
            print("\nCheckmate")
            return True
        print("\n" + ("White" if whites_turn else "Black") + " is in check")
        return False
    if is_stalemate(board, whites_turn):
        print("\nStalemate")
        return True
    return False


PROMOTION_PROMPT = "What piece would you like (q, n, r, b)? "
NOT_A_PIECE = "Not a valid piece. "
PROMOTION_CHOICES = "qnrb"


def attempt_promotion(board, whites_turn):
    row = 0 if whites_turn else BOARD_SIZE - 1
    pawn = WHITE_PAWN if whites_turn else BLACK_PAWN
    for col in range(BOARD_SIZE):
        if board[row][col] == pawn:
            choice = input(PROMOTION_PROMPT)
            while len(choice) != 1 or choice not in PROMOTION_CHOICES:
                choice = input(NOT_A_PIECE + PROMOTION_PROMPT)
            piece = choice.upper() if whites_turn else choice
            return change_position(board, (row, col), piece)
    return board


def is_attacked(board, king, square, whites_turn):
    """Whether the king would be in check standing on square."""
    if square == king:
        return is_in_check(board, whites_turn)
    return is_in_check(update_board(board, (king, square)), whites_turn)


def is_valid_castle_attempt(move, board, whites_turn, castling_info):
    row = BOARD_SIZE - 1 if whites_turn else 0
    start, end = move
    if start != (row, 4) or end not in ((row, 2), (row, 6)):
        return False
    king = WHITE_KING if whites_turn else BLACK_KING
    rook = WHITE_ROOK if whites_turn else BLACK_ROOK
    if piece_at_position(start, board) != king or castling_info[1]:
        return False
    right = end[1] == 6
    if castling_info[2] if right else castling_info[0]:
        return False
    corner = (row, BOARD_SIZE - 1 if right else 0)
    if piece_at_position(corner, board) != rook:
        return False
    step = 1 if right else -1
    for col in range(4 + step, corner[1], step):
        if board[row][col] != EMPTY:
            return False
    for col in range(4, corner[1] + step, step):
        if is_attacked(board, start, (row, col), whites_turn):
            return False
    return True


def perform_castling(move, board):
    (row, start_col), (_, end_col) = move
    if end_col > start_col:
        rook_move = ((row, BOARD_SIZE - 1), (row, start_col + 1))
    else:
        rook_move = ((row, 0), (row, start_col - 1))
    return update_board(update_board(board, move), rook_move)


def is_valid_en_passant(move, board, whites_turn, en_passant_position):
    if en_passant_position is None:
        return False
    start, end = move
    if end != en_passant_position:
        return False
    own = WHITE_PAWN if whites_turn else BLACK_PAWN
    theirs = BLACK_PAWN if whites_turn else WHITE_PAWN
    if out_of_bounds(start) or piece_at_position(start, board) != own:
        return False
    if (end[0] - start[0], end[1] - start[1]) not in pawn_attacking_deltas(whites_turn):
        return False
    if piece_at_position((start[0], end[1]), board) != theirs or piece_at_position(end, board) != EMPTY:
        return False
    return not is_in_check(perform_en_passant(move, board, whites_turn), whites_turn)


def perform_en_passant(move, board, whites_turn):
    start, end = move
    return clear_position(update_board(board, move), (start[0], end[1]))


def update_castling_info(move, whites_turn, castling_info):
    row = BOARD_SIZE - 1 if whites_turn else 0
    start = move[0]
    return tuple(moved or start == (row, col) for moved, col in zip(castling_info, (0, 4, 7)))


def update_en_passant_position(move, board, whites_turn):
    start, end = move
    pawn = WHITE_PAWN if whites_turn else BLACK_PAWN
    step = -1 if whites_turn else 1
    if piece_at_position(end, board) == pawn and start[1] == end[1] and end[0] - start[0] == 2 * step:
        return (start[0] + step, start[1])
    return None


def show_again(board, whites_turn):
    """The board before the same player is prompted again, and whether they are in check."""
    print_board(board)
    check_game_over(board, whites_turn)


def main():
    board = initial_state()
    whites_turn = True
    castling = {True: (False, False, False), False: (False, False, False)}
    en_passant = None
    print_board(board)
    while True:
        text = input("\nWhite's move: " if whites_turn else "\nBlack's move: ")
        if text in ("h", "H"):
            print(HELP_MESSAGE)
            show_again(board, whites_turn)
            continue
        if text in ("q", "Q"):
            if input("Are you sure you want to quit? ") in ("y", "Y"):
                return
            show_again(board, whites_turn)
            continue
        move = process_move(text) if valid_move_format(text) else None
        if move is not None and is_move_valid(move, board, whites_turn):
            board = update_board(board, move)
        elif move is not None and is_valid_en_passant(move, board, whites_turn, en_passant):
            board = perform_en_passant(move, board, whites_turn)
        elif move is not None and is_valid_castle_attempt(move, board, whites_turn, castling[whites_turn]):
            board = perform_castling(move, board)
        else:
            print("Invalid move\n")
            show_again(board, whites_turn)
            continue
        board = attempt_promotion(board, whites_turn)
        castling[whites_turn] = update_castling_info(move, whites_turn, castling[whites_turn])
        en_passant = update_en_passant_position(move, board, whites_turn)
        whites_turn = not whites_turn
        print_board(board)
        if check_game_over(board, whites_turn):
            return


if __name__ == "__main__":
    main()
