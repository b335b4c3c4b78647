// A test file for arbiter (MIT): a submission with no strategy class.
public class Helper {
    public static int twice(int n) {
        return 2 * n;
    }
}
