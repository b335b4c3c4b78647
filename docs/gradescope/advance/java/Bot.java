import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A skeleton Advance bot: reads the board, writes it back. Put the move logic in play. */
public class Bot {
    /** Returns the board after side's move. The skeleton makes none. */
    static List<String> play(List<String> board, String side) {
        return board;
    }

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("name")) {
            System.out.println("Skeleton");
            return;
        }
        if (args.length != 3 || !(args[0].equals("white") || args[0].equals("black"))) {
            System.err.println("usage: run white|black INPUT OUTPUT, or run name");
            System.exit(2);
        }
        try {
            List<String> board = Files.readAllLines(Path.of(args[1]));
            if (board.size() != 9 || board.stream().anyMatch(row -> row.length() != 9)) {
                System.err.println(args[1] + " is not a 9x9 board");
                System.exit(1);
            }
            Files.writeString(Path.of(args[2]), String.join("\n", play(board, args[0])) + "\n");
        } catch (IOException e) {
            System.err.println("cannot read or write the board: " + e.getMessage());
            System.exit(1);
        }
    }
}
