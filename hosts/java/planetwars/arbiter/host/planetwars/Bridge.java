/*
 * arbiter's PlanetWars bridge: loaded with the course's API (planetwars.publicapi) once per JVM,
 * in the class loader above the submission's, it turns arbiter's JSON view into
 * the objects IStrategy.takeTurn receives, and the event queue back into orders. Written for
 * arbiter (MIT). See docs/PROTOCOL.md, "PlanetWars".
 */
package arbiter.host.planetwars;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;

import planetwars.publicapi.IEdge;
import planetwars.publicapi.IEvent;
import planetwars.publicapi.IPlanet;
import planetwars.publicapi.IPlanetOperations;
import planetwars.publicapi.IShuttle;
import planetwars.publicapi.IStrategy;
import planetwars.publicapi.IVisiblePlanet;
import planetwars.publicapi.Owner;

/** Static entry points the host's adapter calls by reflection. */
public final class Bridge {
    /** The course's own example strategies, passed over when the submission has another. */
    private static final Set<String> EXAMPLES = Set.of(
            "planetwars.strategies.RandomStrategy", "planetwars.strategies.NoOpStrategy");

    private Bridge() {}

    /**
     * The one concrete class among {@code candidates} (in the submission's {@code loader}) that
     * implements IStrategy (the course's examples left out when another is there). Throws
     * IllegalStateException saying why none or several qualify. No class is initialised: no
     * student code runs.
     */
    public static String pick(List<Object> candidates, ClassLoader loader) {
        List<String> found = new ArrayList<>();
        for (Object name : candidates) {
            Class<?> c;
            try {
                c = Class.forName(String.valueOf(name), false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            int m = c.getModifiers();
            if (IStrategy.class.isAssignableFrom(c) && !c.isInterface() && !Modifier.isAbstract(m)) {
                found.add(c.getName());
            }
        }
        if (found.size() > 1) {
            List<String> own = new ArrayList<>(found);
            own.removeAll(EXAMPLES);
            if (!own.isEmpty()) {
                found = own;
            }
        }
        if (found.isEmpty()) {
            throw new IllegalStateException("no class implementing planetwars.publicapi.IStrategy among "
                    + candidates);
        }
        if (found.size() > 1) {
            throw new IllegalStateException("several classes implement planetwars.publicapi.IStrategy: "
                    + found + "; name the one to play: `class = \"" + found.get(0)
                    + "\"` in the submission's arbiter.toml (or the grader's --overrides line `SUBMISSION,class,"
                    + found.get(0) + "`), or give its .java file as the bot");
        }
        return found.get(0);
    }

    /**
     * A new instance of the strategy class {@code name} of the submission's {@code loader}, by
     * its public no-argument constructor.
     */
    public static Object create(String name, ClassLoader loader) throws Throwable {
        Class<?> c = Class.forName(name, true, loader);
        if (!IStrategy.class.isAssignableFrom(c)) {
            throw new IllegalStateException(name + " does not implement planetwars.publicapi.IStrategy");
        }
        Constructor<?> k;
        try {
            k = c.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(name + " has no public constructor without arguments");
        }
        return k.newInstance();
    }

    /** {"name": getName(), "compete": compete()}. */
    public static Map<String, Object> describe(Object strategy) {
        IStrategy s = (IStrategy) strategy;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", s.getName());
        out.put("compete", s.compete());
        return out;
    }

    /**
     * One turn: the view as IPlanets, takeTurn, and the queue's transfers as order lines
     * {@code send FROM TO PEOPLE}, one per line (docs/PROTOCOL.md).
     */
    public static String turn(Object strategy, Map<String, Object> view) {
        List<IPlanet> planets = "course".equals(view.get("order")) ? coursePlanets(view) : planets(view);
        Queue<IEvent> queue = new ArrayDeque<>();
        partial = null;
        try {
            ((IStrategy) strategy).takeTurn(planets, new Operations(), queue);
        } catch (RuntimeException | Error e) {
            // The course's engine carries out what was queued before a turn threw.
            partial = orders(queue);
            throw e;
        }
        StringBuilder lines = new StringBuilder();
        for (IEvent e : queue) {
            if (e instanceof Transfer) {
                Transfer t = (Transfer) e;
                lines.append("send ").append(t.from).append(' ').append(t.to).append(' ').append(t.people).append('\n');
            }
        }
        return lines.toString();
    }

    /** The orders queued before the last turn threw, or null. */
    public static List<Object> partial() {
        return partial;
    }

    /**
     * Forgets the last turn. The bridge is loaded once for every game (beside the course's
     * API, in the host's class loader), so nothing of one game's may stay in it for the next.
     */
    public static void forget() {
        partial = null;
    }

    private static List<Object> partial;

    private static List<Object> orders(Queue<IEvent> queue) {
        List<Object> orders = new ArrayList<>();
        for (IEvent e : queue) {
            if (e instanceof Transfer) {
                Transfer t = (Transfer) e;
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("from", t.from);
                o.put("to", t.to);
                o.put("population", t.people);
                orders.add(o);
            }
        }
        return orders;
    }

    /** The view's edges, each {a, b, distance}, in the order it lists them. */
    private static List<int[]> edges(Map<String, Object> view) {
        List<int[]> edges = new ArrayList<>();
        for (Object e : list(view.get("edges"))) {
            List<Object> abd = list(e);
            if (abd.size() != 3) {
                throw new IllegalArgumentException("an edge is [a, b, distance], not " + e);
            }
            edges.add(new int[] {integer(abd.get(0)), integer(abd.get(1)), integer(abd.get(2))});
        }
        return edges;
    }

    /** A planet the view shows in detail ({@code m}), as {@code course}'s engine or arbiter's own order builds it. */
    private static Visible visible(Map<?, ?> m, int id, Set<IEdge> edges, List<IShuttle> incoming, boolean course) {
        int habitability = integer(m.get("habitability"));
        long size = number(m.get("size"));
        long population = number(m.get("population"));
        Owner owner = owner(m.get("owner"));
        boolean home = Boolean.TRUE.equals(m.get("home"));
        return course ? new CourseVisible(id, edges, habitability, size, population, owner, home, incoming)
                : new Visible(id, edges, habitability, size, population, owner, home, incoming);
    }

    private static List<IPlanet> planets(Map<String, Object> view) {
        Map<Integer, Set<IEdge>> edges = new LinkedHashMap<>();
        for (int[] e : edges(view)) {
            edges.computeIfAbsent(e[0], k -> new LinkedHashSet<>()).add(new Edge(e[0], e[1], e[2]));
            edges.computeIfAbsent(e[1], k -> new LinkedHashSet<>()).add(new Edge(e[1], e[0], e[2]));
        }
        Map<Integer, List<IShuttle>> incoming = shuttlesByDestination(view);
        List<IPlanet> planets = new ArrayList<>();
        for (Object p : list(view.get("planets"))) {
            Map<?, ?> m = (Map<?, ?>) p;
            int id = integer(m.get("id"));
            Set<IEdge> own = Collections.unmodifiableSet(edges.getOrDefault(id, new LinkedHashSet<>()));
            if (m.containsKey("owner")) {
                List<IShuttle> in = Collections.unmodifiableList(incoming.getOrDefault(id, new ArrayList<>()));
                planets.add(visible(m, id, own, in, false));
            } else {
                planets.add(new Planet(id, own));
            }
        }
        return planets;
    }

    /**
     * The planets as the course's engine hands them (order=course): built with the same
     * java.util collections, filled in the same order, so that they iterate as the engine's do.
     * The engine adds each planet's edges to a HashSet in the order its map loader lists them
     * (a TreeMap keyed by the text "a-b" of each edge as written); a planet's getEdges() is a
     * copy of that set made with new HashSet<>(size) and addAll. Its list of planets holds the
     * visible ones first, in the order of a HashMap filled by walking the planets (a HashMap by
     * id) and putting each owned planet and then the destinations of its edges, then the others
     * in the order of a second HashMap. A visible planet's getEdges() is its set itself and
     * getIncomingShuttles() a new list each call; another planet's getEdges() a new copy of its
     * set each call.
     */
    private static List<IPlanet> coursePlanets(Map<String, Object> view) {
        List<int[]> edges = edges(view);
        edges.sort((x, y) -> (x[0] + "-" + x[1]).compareTo(y[0] + "-" + y[1]));
        Map<Integer, Map<?, ?>> byId = new LinkedHashMap<>();
        List<Integer> ids = new ArrayList<>();
        for (Object p : list(view.get("planets"))) {
            Map<?, ?> m = (Map<?, ?>) p;
            byId.put(integer(m.get("id")), m);
            ids.add(integer(m.get("id")));
        }
        // The engine's planets by id, put in the order its loader lists the nodes (a TreeMap of
        // their ids as text).
        List<Integer> loaded = new ArrayList<>(ids);
        loaded.sort((x, y) -> String.valueOf(x).compareTo(String.valueOf(y)));
        Map<Integer, Set<IEdge>> base = new HashMap<>();
        for (int id : loaded) {
            base.put(id, new HashSet<>());
        }
        for (int[] e : edges) {
            base.get(e[0]).add(new Edge(e[0], e[1], e[2]));
            base.get(e[1]).add(new Edge(e[1], e[0], e[2]));
        }
        Map<Integer, List<IShuttle>> incoming = shuttlesByDestination(view);
        Map<Integer, Integer> visible = new HashMap<>();
        for (int id : base.keySet()) {
            Map<?, ?> m = byId.get(id);
            if (m.containsKey("owner") && "self".equals(m.get("owner"))) {
                visible.put(id, id);
                for (IEdge edge : engineEdges(base.get(id))) {
                    visible.put(edge.getDestinationPlanetId(), edge.getDestinationPlanetId());
                }
            }
        }
        Map<Integer, Integer> hidden = new HashMap<>();
        for (int id : base.keySet()) {
            if (!visible.containsKey(id)) {
                hidden.put(id, id);
            }
        }
        List<IPlanet> planets = new ArrayList<>();
        for (int id : visible.keySet()) {
            Map<?, ?> m = byId.get(id);
            if (!m.containsKey("owner")) {
                throw new IllegalArgumentException("planet " + id + " is visible to the engine but not in the view");
            }
            planets.add(visible(m, id, engineEdges(base.get(id)), incoming.getOrDefault(id, new ArrayList<>()), true));
        }
        for (int id : hidden.keySet()) {
            planets.add(new CoursePlanet(id, engineEdges(base.get(id))));
        }
        return planets;
    }

    /** The engine's Planet.getIEdges(): a copy sized to the set, filled from it. */
    private static Set<IEdge> engineEdges(Set<IEdge> edges) {
        Set<IEdge> copy = new HashSet<>(edges.size());
        copy.addAll(edges);
        return copy;
    }

    private static Map<Integer, List<IShuttle>> shuttlesByDestination(Map<String, Object> view) {
        Map<Integer, List<IShuttle>> incoming = new LinkedHashMap<>();
        for (Object s : list(view.get("shuttles"))) {
            Map<?, ?> m = (Map<?, ?>) s;
            Shuttle shuttle = new Shuttle(owner(m.get("owner")), integer(m.get("from")), integer(m.get("to")),
                    number(m.get("population")), integer(m.get("remaining")));
            incoming.computeIfAbsent(shuttle.to, k -> new ArrayList<>()).add(shuttle);
        }
        return incoming;
    }

    private static List<Object> list(Object o) {
        if (o == null) {
            return new ArrayList<>();
        }
        @SuppressWarnings("unchecked")
        List<Object> l = (List<Object>) o;
        return l;
    }

    private static long number(Object o) {
        return ((Number) o).longValue();
    }

    private static int integer(Object o) {
        return ((Number) o).intValue();
    }

    private static Owner owner(Object o) {
        if ("self".equals(o)) {
            return Owner.SELF;
        }
        if ("opponent".equals(o)) {
            return Owner.OPPONENT;
        }
        return Owner.NEUTRAL;
    }

    /** A transfer a strategy asked for. */
    private static final class Transfer implements IEvent {
        final long from;
        final long to;
        final long people;

        Transfer(long from, long to, long people) {
            this.from = from;
            this.to = to;
            this.people = people;
        }

        @Override
        public String toString() {
            return "transfer " + people + " from " + from + " to " + to;
        }
    }

    private static final class Operations implements IPlanetOperations {
        @Override
        public IEvent transferPeople(IPlanet from, IPlanet to, long numPeople) {
            return new Transfer(from.getId(), to.getId(), numPeople);
        }
    }

    private static final class Edge implements IEdge {
        private final int source;
        private final int destination;
        private final int length;

        Edge(int source, int destination, int length) {
            this.source = source;
            this.destination = destination;
            this.length = length;
        }

        @Override
        public int getSourcePlanetId() {
            return source;
        }

        @Override
        public int getDestinationPlanetId() {
            return destination;
        }

        @Override
        public int getLength() {
            return length;
        }

        // Equal by value and hashed as the course engine's edges are, so that a strategy's own
        // HashSet of edges iterates as it does in the engine.
        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (o == null || getClass() != o.getClass()) {
                return false;
            }
            Edge e = (Edge) o;
            return source == e.source && destination == e.destination && length == e.length;
        }

        @Override
        public int hashCode() {
            return (31 * source + destination) * 31 + length;
        }

        @Override
        public String toString() {
            return source + "->" + destination + " (" + length + ")";
        }
    }

    private static final class Shuttle implements IShuttle {
        private final Owner owner;
        private final int from;
        private final int to;
        private final long people;
        private final int remaining;

        Shuttle(Owner owner, int from, int to, long people, int remaining) {
            this.owner = owner;
            this.from = from;
            this.to = to;
            this.people = people;
            this.remaining = remaining;
        }

        @Override
        public long getNumberPeople() {
            return people;
        }

        @Override
        public Owner getOwner() {
            return owner;
        }

        @Override
        public int getSourcePlanetId() {
            return from;
        }

        @Override
        public int getDestinationPlanetId() {
            return to;
        }

        @Override
        public int getTurnsToArrival() {
            return remaining;
        }
    }

    private static class Planet implements IPlanet {
        private final int id;
        private final Set<IEdge> edges;

        Planet(int id, Set<IEdge> edges) {
            this.id = id;
            this.edges = edges;
        }

        @Override
        public int getId() {
            return id;
        }

        @Override
        public Set<IEdge> getEdges() {
            return edges;
        }

        @Override
        public String toString() {
            return "planet " + id;
        }
    }

    private static class Visible extends Planet implements IVisiblePlanet {
        private final int habitability;
        private final long size;
        private final long population;
        private final Owner owner;
        private final boolean home;
        private final List<IShuttle> incoming;

        Visible(int id, Set<IEdge> edges, int habitability, long size, long population, Owner owner,
                boolean home, List<IShuttle> incoming) {
            super(id, edges);
            this.habitability = habitability;
            this.size = size;
            this.population = population;
            this.owner = owner;
            this.home = home;
            this.incoming = incoming;
        }

        @Override
        public int getHabitability() {
            return habitability;
        }

        @Override
        public long getSize() {
            return size;
        }

        @Override
        public long getPopulation() {
            return population;
        }

        @Override
        public Owner getOwner() {
            return owner;
        }

        @Override
        public boolean isHomeworld() {
            return home;
        }

        @Override
        public List<IShuttle> getIncomingShuttles() {
            return incoming;
        }

        @Override
        public String toString() {
            return "planet " + getId() + " (" + owner + ", " + population + " of " + size + ")";
        }
    }

    /** A planet not seen in detail, as the engine's PlanetSnapshot: a new copy of its edges each call. */
    private static final class CoursePlanet extends Planet {
        CoursePlanet(int id, Set<IEdge> edges) {
            super(id, edges);
        }

        @Override
        public Set<IEdge> getEdges() {
            return new HashSet<>(super.getEdges());
        }
    }

    /** A planet seen in detail, as the engine's VisiblePlanetSnapshot: a new list of its incoming shuttles each call. */
    private static final class CourseVisible extends Visible {
        CourseVisible(int id, Set<IEdge> edges, int habitability, long size, long population, Owner owner,
                boolean home, List<IShuttle> incoming) {
            super(id, edges, habitability, size, population, owner, home, incoming);
        }

        @Override
        public List<IShuttle> getIncomingShuttles() {
            return new ArrayList<>(super.getIncomingShuttles());
        }
    }
}
