"""
A correct solution of the chess assignment (CSSE1001 a1, 2021), written for arbiter's tests.
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


def show_again(board, whites_turn):
    """The board before the same player is prompted again, and whether they are in check."""
    print_board(board)
    check_game_over(board, whites_turn)


def main():
    board = initial_state()
    whites_turn = True
    print_board(board)
    while True:
        text = input("\nWhite's move: " if whites_turn else "\nBlack's move: ")
        if text in ("h", "H"):
            print(HELP_MESSAGE)
            show_again(board, whites_turn)
        elif text in ("q", "Q"):
            if input("Are you sure you want to quit? ") in ("y", "Y"):
                return
            show_again(board, whites_turn)
        elif valid_move_format(text) and is_move_valid(process_move(text), board, whites_turn):
            board = update_board(board, process_move(text))
            whites_turn = not whites_turn
            print_board(board)
            if check_game_over(board, whites_turn):
                return
        else:
            print("Invalid move\n")
            show_again(board, whites_turn)


if __name__ == "__main__":
    main()


def piece_name(piece: str) -> str:
    """The piece's name: a test module's one line of Python 3.10 (a match statement)."""
    match piece.lower():
        case "k":
            return "king"
        case _:
            return "another piece"
