package io.eventplane.schemas.serde;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A {@link SpecificDatumWriter} that picks the branch of a nullable union ({@code ["null", T]}, almost every field of
 * a Kubernetes object) by the value being null or not, instead of looking the value's schema name up in the union:
 * that lookup was half of the writer's encoding time. Other unions resolve as Avro resolves them. A value of the wrong
 * type still fails, when its branch writes it.
 */
final class NullableUnionWriter extends SpecificDatumWriter<Object> {

    NullableUnionWriter(Schema root) {
        super(root);
    }

    @Override
    protected int resolveUnion(Schema union, Object datum) {
        List<Schema> types = union.getTypes();
        if (types.size() == 2) {
            if (types.get(0).getType() == Schema.Type.NULL) {
                return datum == null ? 0 : 1;
            }
            if (types.get(1).getType() == Schema.Type.NULL) {
                return datum == null ? 1 : 0;
            }
        }
        return super.resolveUnion(union, datum);
    }
}
