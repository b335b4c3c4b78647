using System;
using System.IO;
using System.Linq;

/// <summary>A skeleton Advance bot: reads the board, writes it back.</summary>
public static class Program
{
    /// <summary>Returns the board after the side's move. The skeleton makes none.</summary>
    /// <param name="board">The nine rows of the board.</param>
    /// <param name="side">white or black.</param>
    /// <returns>The board after the move.</returns>
    static string[] Play(string[] board, string side) => board;

    /// <summary>Plays one move: <c>white|black IN OUT</c>, or prints the name.</summary>
    /// <param name="args">The command-line arguments.</param>
    /// <returns>The exit status.</returns>
    public static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "name")
        {
            Console.WriteLine("Skeleton");
            return 0;
        }
        if (args.Length != 3 || (args[0] != "white" && args[0] != "black"))
        {
            Console.Error.WriteLine("usage: run white|black INPUT OUTPUT, or run name");
            return 2;
        }
        try
        {
            var board = File.ReadAllLines(args[1]);
            if (board.Length != 9 || board.Any(row => row.Length != 9))
            {
                Console.Error.WriteLine($"{args[1]} is not a 9x9 board");
                return 1;
            }
            File.WriteAllText(args[2], string.Join("\n", Play(board, args[0])) + "\n");
            return 0;
        }
        catch (IOException e)
        {
            Console.Error.WriteLine($"cannot read or write the board: {e.Message}");
            return 1;
        }
    }
}
