package io.eventplane.client;

import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.apiextensions.CustomResourceDefinition;

/**
 * Keeps {@link CustomKinds} in step with the CustomResourceDefinitions of a live view: a definition serves its kind
 * once it is Established, and stops when it is deleted. Only live views feed it, never a past state.
 */
public final class CustomKindsFeed implements ObjectView.Listener {
    @Override
    public void onChange(ObjectChanged change) {
        apply(change);
    }

    /** Takes one change of the log into account (the writer calls it for the changes it decides). */
    public static void apply(ObjectChanged change) {
        if (!change.getKind().equals(Kinds.CUSTOM_RESOURCE_DEFINITION.kind())) {
            return;
        }
        if (change.getType() == ChangeType.DELETED) {
            CustomKinds.forget(change.getName(), change.getResourceVersion());
        } else {
            CustomKinds.define((CustomResourceDefinition) change.getObject());
        }
    }

    /** Feeds {@link CustomKinds} from {@code view}, from now on and with what it holds already. */
    public static ObjectView attach(ObjectView view) {
        view.addListener(new CustomKindsFeed());
        return view;
    }
}
