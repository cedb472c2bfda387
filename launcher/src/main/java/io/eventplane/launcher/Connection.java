package io.eventplane.launcher;

import io.eventplane.client.CommandSigning;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.schemas.Topics;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * How commands that read the log directly (replay, bench) reach a cluster: {@code --bootstrap} and {@code --registry}
 * (plus {@code --topic-prefix}, {@code --partitions}), or the {@code connection.properties} that {@code eventplane up}
 * writes into its data directory; and how commands that use the API reach it: {@code --server} or the kubeconfig.
 */
final class Connection {
    static final String FILE = "connection.properties";

    private Connection() {
    }

    static void write(Path file, EventplaneConfig config) throws IOException {
        Properties p = new Properties();
        p.setProperty("bootstrap", config.bootstrapServers());
        p.setProperty("registry", config.registryUrl());
        p.setProperty("topic-prefix", config.topics().prefix());
        p.setProperty("partitions", Integer.toString(config.partitions()));
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "written by eventplane up: how to reach this cluster's log");
        }
    }

    /** The log's connection from the options, else from the data directory; null (after saying why) when neither. */
    static EventplaneConfig config(Options options, java.io.PrintStream err, String command) throws IOException {
        Properties p = new Properties();
        Path file = Path.of(options.get("data-dir", ".eventplane"), FILE);
        if (Files.exists(file)) {
            try (Reader r = Files.newBufferedReader(file)) {
                p.load(r);
            }
        }
        String bootstrap = options.get("bootstrap", p.getProperty("bootstrap"));
        String registry = options.get("registry", p.getProperty("registry"));
        if (bootstrap == null || registry == null) {
            err.println("eventplane " + command + ": no --bootstrap/--registry given and no " + file
                    + " (is `eventplane up` running?)");
            return null;
        }
        String prefix = options.get("topic-prefix", p.getProperty("topic-prefix", "ep"));
        String given = options.get("partitions", p.getProperty("partitions"));
        Topics topics = new Topics(prefix);
        int partitions = given != null ? Integer.parseInt(given) : partitionsOf(bootstrap, topics);
        // The cluster's command secret next to its connection (who may read the data directory may write to its log,
        // as its admin kubeconfig there lets them): this command's writes carry credentials the writer believes.
        Path secret = file.resolveSibling("pki").resolve(LocalCluster.COMMAND_SECRET);
        if (Files.exists(secret) && EventplaneConfig.setting(CommandSigning.SECRET_FILE, "").isEmpty()) {
            System.setProperty(CommandSigning.SECRET_FILE.toLowerCase().replace('_', '.'), secret.toString());
        }
        return new EventplaneConfig(bootstrap, registry, topics, partitions);
    }

    /** The command log's partition count as the broker has it (resourceVersions encode it); 1 when it does not exist. */
    private static int partitionsOf(String bootstrap, Topics topics) {
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                java.util.Map.of("bootstrap.servers", bootstrap))) {
            return admin.describeTopics(java.util.List.of(topics.commands())).allTopicNames()
                    .get(10, java.util.concurrent.TimeUnit.SECONDS).get(topics.commands()).partitions().size();
        } catch (Exception e) {
            return 1;
        }
    }

    /** The API server's URL from {@code --server}, else from the kubeconfig ({@code --kubeconfig}, else the data
     * directory's); null when neither. {@link Api} then calls with the kubeconfig's CA and credentials. */
    static String server(Options options, java.io.PrintStream err, String command) throws IOException {
        Path kubeconfig = Path.of(options.get("kubeconfig", Path.of(options.get("data-dir", ".eventplane"),
                "kubeconfig").toString()));
        // The credentials (and CA) are the kubeconfig's, also when --server names the address.
        Api.useKubeconfig(kubeconfig);
        String server = options.get("server", null);
        if (server != null) {
            return server;
        }
        server = Kubeconfig.server(kubeconfig);
        if (server == null) {
            err.println("eventplane " + command + ": no --server given and no " + kubeconfig
                    + " (is `eventplane up` running?)");
        }
        return server;
    }
}
