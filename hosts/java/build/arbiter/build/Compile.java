// arbiter's build step for a Java submission, run in arbiter's sandbox like the submission
// itself: the JDK's compiler on the copy of the submission's sources arbiter made, then the
// classes it wrote packed into one jar. The sandbox hands back only the files at the top of a
// run's folder, not a tree of classes; the host loads the jar as it would the folder.
//
// Usage: java -cp CLASSES arbiter.build.Compile JAR SCRATCH JAVAC_ARGUMENTS...
// Exit status: javac's (1: the sources do not compile), 2: a bad command line, 3: this Java
// runtime has no compiler.
package arbiter.build;

import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public final class Compile {
    private Compile() {}

    public static void main(String[] argv) throws IOException {
        if (argv.length < 3) {
            System.err.println("usage: arbiter.build.Compile JAR SCRATCH JAVAC_ARGUMENTS...");
            System.exit(2);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            System.err.println("this Java runtime has no compiler (a JRE rather than a JDK)");
            System.exit(3);
        }
        Path jar = Paths.get(argv[0]);
        Path scratch = Paths.get(argv[1]);
        Files.createDirectories(scratch);
        List<String> arguments = new ArrayList<>(List.of("-d", scratch.toString()));
        arguments.addAll(Arrays.asList(argv).subList(2, argv.length));
        // javac's messages go to this process's stderr, which arbiter reads.
        int status = javac.run(null, null, null, arguments.toArray(new String[0]));
        if (status != 0) {
            System.exit(status);
        }
        List<Path> classes;
        try (Stream<Path> walk = Files.walk(scratch)) {
            classes = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(jar));
                JarOutputStream out = new JarOutputStream(file)) {
            for (Path path : classes) {
                JarEntry entry = new JarEntry(scratch.relativize(path).toString().replace(File.separatorChar, '/'));
                // The same sources give the same jar.
                entry.setTime(0);
                out.putNextEntry(entry);
                Files.copy(path, out);
                out.closeEntry();
            }
        }
    }
}
