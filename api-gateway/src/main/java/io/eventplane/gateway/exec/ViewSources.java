package io.eventplane.gateway.exec;

import io.eventplane.client.ClusterView;
import io.eventplane.core.container.ContainerSources;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Node;
import io.eventplane.model.Secret;
import io.eventplane.model.Service;
import java.util.List;
import java.util.Optional;

/** A container's sources read from the gateway's view of the log. */
final class ViewSources implements ContainerSources {
    private final ClusterView view;

    ViewSources(ClusterView view) {
        this.view = view;
    }

    @Override
    public Optional<ConfigMap> configMap(String namespace, String name) {
        return view.get(Kinds.CONFIG_MAP.kind(), namespace, name).map(c -> (ConfigMap) c.getObject());
    }

    @Override
    public Optional<Secret> secret(String namespace, String name) {
        return view.get(Kinds.SECRET.kind(), namespace, name).map(c -> (Secret) c.getObject());
    }

    @Override
    public List<Service> services(String namespace) {
        return view.objects(Kinds.SERVICE.kind(), namespace);
    }

    @Override
    public Optional<Node> node(String name) {
        return view.get(Kinds.NODE.kind(), "", name).map(c -> (Node) c.getObject());
    }
}
