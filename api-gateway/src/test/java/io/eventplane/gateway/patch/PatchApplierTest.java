package io.eventplane.gateway.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.gateway.patch.PatchApplier.Type;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PatchApplierTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static JsonNode j(String json) throws Exception {
        return M.readTree(json.replace('\'', '"'));
    }

    private static String apply(Type type, String doc, String patch) throws Exception {
        return PatchApplier.apply(type, j(doc), j(patch)).toString().replace('"', '\'');
    }

    @Test
    @DisplayName("merge patch: objects merge, null deletes, arrays and scalars replace")
    void mergePatch() throws Exception {
        assertEquals("{'a':{'c':2,'d':3},'l':[9]}",
                apply(Type.MERGE, "{'a':{'b':1,'c':1},'l':[1,2]}", "{'a':{'b':null,'c':2,'d':3},'l':[9]}"));
    }

    @Test
    @DisplayName("JSON patch: add, remove, replace, move, copy and test, with '-' and ~1 escapes")
    void jsonPatch() throws Exception {
        String doc = "{'m':{'a/b':1},'l':[1,2]}";
        assertEquals("{'m':{'a/b':1},'l':[0,1,2,3]}", apply(Type.JSON, doc,
                "[{'op':'add','path':'/l/-','value':3},{'op':'add','path':'/l/0','value':0}]"));
        assertEquals("{'m':{},'l':[1,2],'x':1}", apply(Type.JSON, doc,
                "[{'op':'move','from':'/m/a~1b','path':'/x'}]"));
        assertEquals("{'m':{'a/b':1},'l':[2],'c':[2]}", apply(Type.JSON, doc,
                "[{'op':'remove','path':'/l/0'},{'op':'copy','from':'/l','path':'/c'}]"));
        assertEquals("{'m':{'a/b':5},'l':[1,2]}", apply(Type.JSON, doc,
                "[{'op':'test','path':'/m/a~1b','value':1.0},{'op':'replace','path':'/m/a~1b','value':5}]"));
        assertThrows(PatchException.class, () -> apply(Type.JSON, doc, "[{'op':'test','path':'/l/0','value':7}]"));
        assertThrows(PatchException.class, () -> apply(Type.JSON, doc, "[{'op':'replace','path':'/nope','value':7}]"));
        assertThrows(PatchException.class, () -> apply(Type.JSON, doc, "[{'op':'remove','path':'/l/5'}]"));
    }

    @Test
    @DisplayName("strategic merge: containers merge by name, $setElementOrder orders them, $patch delete removes one")
    void strategicMerge() throws Exception {
        String pod = "{'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'y','env':[{'name':'E','value':'1'}]}]}}";
        assertEquals("{'spec':{'containers':[{'name':'b','image':'y2','env':[{'name':'E','value':'1'},{'name':'F','value':'2'}]},{'name':'a','image':'x'}]}}",
                apply(Type.STRATEGIC, pod, "{'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'a'}],"
                        + "'containers':[{'name':'b','image':'y2','env':[{'name':'F','value':'2'}]}]}}"));
        assertEquals("{'spec':{'containers':[{'name':'b','image':'y','env':[{'name':'E','value':'1'}]}]}}",
                apply(Type.STRATEGIC, pod, "{'spec':{'containers':[{'name':'a','$patch':'delete'}]}}"));
        assertEquals("{'spec':{'containers':[{'name':'z'}]}}",
                apply(Type.STRATEGIC, pod, "{'spec':{'containers':[{'$patch':'replace'},{'name':'z'}]}}"));
    }

    @Test
    @DisplayName("strategic merge: finalizers merge as a set, ports by containerPort, other lists replace")
    void strategicLists() throws Exception {
        assertEquals("{'metadata':{'finalizers':['a','b']}}",
                apply(Type.STRATEGIC, "{'metadata':{'finalizers':['a']}}", "{'metadata':{'finalizers':['b','a']}}"));
        assertEquals("{'ports':[{'containerPort':80,'name':'http'},{'containerPort':443}]}",
                apply(Type.STRATEGIC, "{'ports':[{'containerPort':80}]}",
                        "{'ports':[{'containerPort':80,'name':'http'},{'containerPort':443}]}"));
        assertEquals("{'args':['x']}", apply(Type.STRATEGIC, "{'args':['a','b']}", "{'args':['x']}"));
        assertEquals("{'metadata':{'finalizers':['b']}}", apply(Type.STRATEGIC,
                "{'metadata':{'finalizers':['a','b']}}", "{'metadata':{'$deleteFromPrimitiveList/finalizers':['a']}}"));
    }

    @Test
    @DisplayName("strategic merge patch by the kind's schema: a Service's ports merge by port, an EndpointSlice's are "
            + "atomic, a Pod's container ports merge by containerPort")
    void listsByElementType() throws Exception {
        String svc = "{'spec':{'ports':[{'name':'a','port':80},{'name':'b','port':443}]}}";
        assertEquals("{'spec':{'ports':[{'name':'a','port':80,'targetPort':8080},{'name':'b','port':443}]}}",
                PatchApplier.apply(Type.STRATEGIC, j(svc), j("{'spec':{'ports':[{'port':80,'targetPort':8080}]}}"),
                        io.eventplane.model.Service.getClassSchema()).toString().replace('"', '\''));
        String slice = "{'ports':[{'name':'a','port':80},{'name':'b','port':443}]}";
        assertEquals("{'ports':[{'name':'a','port':81}]}", PatchApplier.apply(Type.STRATEGIC, j(slice),
                j("{'ports':[{'name':'a','port':81}]}"), io.eventplane.model.discovery.EndpointSlice.getClassSchema())
                .toString().replace('"', '\''));
        String pod = "{'spec':{'containers':[{'name':'c','ports':[{'containerPort':80},{'containerPort':81}]}]}}";
        assertEquals("{'spec':{'containers':[{'name':'c','ports':[{'containerPort':80,'name':'web'},{'containerPort':81}]}]}}",
                PatchApplier.apply(Type.STRATEGIC, j(pod), j("{'spec':{'containers':[{'name':'c','ports':"
                        + "[{'containerPort':80,'name':'web'}]}]}}"), io.eventplane.model.Pod.getClassSchema())
                        .toString().replace('"', '\''));
    }
}
