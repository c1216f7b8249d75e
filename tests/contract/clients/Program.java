// A program on openapi-generator's `java` client (library `native`, Jackson): it records each
// hand it is given at its variant's table through the generated typed models, reads it back
// typed (the answer's `hand` deserialized as the member its tags name), and reads the
// settlement's parties and the American table's settle-up through their typed `Party`.
// Arguments: the service's URL, {variant: [table id, token]}, [[variant, component, body]].
// It prints what it read as JSON for tests/contract/test_generated_clients.py to check.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openapitools.client.ApiClient;
import org.openapitools.client.JSON;
import org.openapitools.client.api.HandsApi;
import org.openapitools.client.api.TablesApi;
import org.openapitools.client.model.AbstractOpenApiSchema;
import org.openapitools.client.model.CashTransfer;
import org.openapitools.client.model.Hand;
import org.openapitools.client.model.HandRecordCreate;
import org.openapitools.client.model.HandWithTable;
import org.openapitools.client.model.Party;
import org.openapitools.client.model.SettleUp;
import org.openapitools.client.model.Transfer;

public class Program {
    static ApiClient client(String url, String token) {
        ApiClient client = new ApiClient();
        client.updateBaseUri(url);
        client.setRequestInterceptor(b -> b.header("Authorization", "Bearer " + token));
        return client;
    }

    static List<Object> party(Party party) {
        List<Object> shown = new ArrayList<>();
        shown.add(party.getKind().getValue());
        shown.add(party.getSeat());
        return shown;
    }

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = JSON.getDefault().getMapper();
        String url = args[0];
        JsonNode tables = mapper.readTree(args[1]);
        List<Map<String, Object>> read = new ArrayList<>();
        for (JsonNode hand : mapper.readTree(args[2])) {
            JsonNode table = tables.get(hand.get(0).asText());
            String tableId = table.get(0).asText();
            HandsApi hands = new HandsApi(client(url, table.get(1).asText()));
            // The union picks its member by the tag (`variant`, then American Solo's `kind`).
            HandRecordCreate body = mapper.treeToValue(hand.get(2), HandRecordCreate.class);
            HandWithTable recorded = hands.recordHand(tableId, body, null, null);
            Hand got = hands.getHand(tableId, recorded.getNumber());
            Object back = got.getHand().getActualInstance();
            while (back instanceof AbstractOpenApiSchema) {
                back = ((AbstractOpenApiSchema) back).getActualInstance();
            }
            List<Object> parties = new ArrayList<>();
            for (Transfer transfer : got.getSettlement().getTransfers()) {
                parties.add(List.of(transfer.getFrom(), party(transfer.getFromParty())));
                parties.add(List.of(transfer.getTo(), party(transfer.getToParty())));
            }
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("type", back.getClass().getSimpleName());
            shown.put("record", mapper.convertValue(back, Map.class));
            shown.put("parties", parties);
            read.add(shown);
        }
        JsonNode american = tables.get("american");
        TablesApi tablesApi = new TablesApi(client(url, american.get(1).asText()));
        SettleUp settleUp = tablesApi.getSettleUp(american.get(0).asText());
        List<Object> payments = new ArrayList<>();
        for (CashTransfer transfer : settleUp.getTransfers()) {
            payments.add(List.of(transfer.getFrom(), party(transfer.getFromParty())));
            payments.add(List.of(transfer.getTo(), party(transfer.getToParty())));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("hands", read);
        out.put("settle_up", payments);
        System.out.println(mapper.writeValueAsString(out));
    }
}
