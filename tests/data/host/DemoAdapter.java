package arbiter.host;
import java.util.Map;
public final class DemoAdapter implements Adapter {
    private ClassLoader loader; private Object obj;
    public void reset(ClassLoader l) { loader = l; obj = null; }
    public Object call(String op, Map<String, Object> args) throws Throwable {
        switch (op) {
            case "new": obj = loader.loadClass("demo.Counter").getDeclaredConstructor().newInstance(); return null;
            case "inc": return obj.getClass().getMethod("inc").invoke(obj);
            case "boom": return obj.getClass().getMethod("boom").invoke(obj);
            case "run": return obj.getClass().getMethod((String) args.get("method")).invoke(obj);
            default: throw Adapter.Failure.protocol("unknown op " + op);
        }
    }
}
