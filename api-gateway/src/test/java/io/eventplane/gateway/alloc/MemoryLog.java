package io.eventplane.gateway.alloc;

import io.eventplane.client.ObjectStore;
import io.eventplane.client.Requests;
import io.eventplane.core.Keys;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Service;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The writer's decision over a store in memory, one command at a time: the log as the allocators see it. */
final class MemoryLog implements LogWriter {
    final ObjectStore store = new ObjectStore();
    private final ObjectDecider decider = new ObjectDecider(RulesRegistry.standard());
    private final io.eventplane.client.Commands user = new io.eventplane.client.Commands("test");
    /** Every change appended, in order. */
    final List<ObjectChanged> changes = new ArrayList<>();
    private long position;

    @Override
    public synchronized Requests.Result submit(Command command) {
        String key = Keys.of(command.getKind(), command.getNamespace(), command.getName());
        Decision d = decider.decide(command, store.get(key).orElse(null), ++position);
        d.change().ifPresent(c -> {
            store.apply(c);
            changes.add(c);
        });
        return new Requests.Result(d.outcome(), d.change().orElse(store.get(key).orElse(null)));
    }

    /** A Service as the writer would store it (defaulted, checked), from YAML; nothing is written. */
    Service decided(String yaml) {
        Service s = KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), Service.class,
                FieldValidation.STRICT, null);
        Command create = user.create(s);
        create = Command.newBuilder(create).setNamespace("default").build();
        Decision d = decider.decide(create, store.get(Keys.of("Service", "default", create.getName())).orElse(null),
                position + 1);
        if (!d.outcome().getAccepted()) {
            throw new AssertionError(d.outcome().getMessage());
        }
        return (Service) d.change().orElseThrow().getObject();
    }

    static Service parse(String yaml) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), Service.class, FieldValidation.STRICT,
                null);
    }

    /** Writes a Service (with what the allocator filled in). */
    ObjectChanged write(Service service) {
        Command c = Command.newBuilder(user.create(service)).setNamespace("default").build();
        Requests.Result r = submit(c);
        if (!r.accepted()) {
            throw new AssertionError(r.outcome().getMessage());
        }
        return r.object();
    }
}
