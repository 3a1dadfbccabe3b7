package dev.mooring.engine.admission;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;

/**
 * Reads untrusted JSON into a JSON-P tree within fixed limits, so that the work per document is
 * bounded by its size and every input ends in a tree or in a {@link Rejected} naming the problem.
 *
 * <p>Only {@link JsonParser#next()} is used, which fails at the end of input. The parser's
 * {@code skipObject}/{@code skipArray} (and so JSON-B, which skips unknown properties with them)
 * loop forever on a document that ends inside the skipped value in Parsson 1.1.x
 * (eclipse-ee4j/parsson#23, open; seen with 1.1.7 to 1.1.9). The tree is built without recursion,
 * so deep nesting costs no stack.
 *
 * <p>Every value is made by one {@link JsonProvider}, looked up once: {@code Json.createValue} and
 * the other {@code Json.*} methods look the provider up again at every call (a service-loader scan;
 * under Liberty also a failed class load), which made a document of a million empty strings cost
 * a minute of CPU. With one provider the work is linear in the document with a small constant for
 * every shape the limits allow. A budget, asked every {@value #CHECK_EVERY} values whether it is
 * spent, bounds the time of one parse as well.
 */
public final class BoundedJson {

    /**
     * The limits of one document.
     *
     * @param maxDepth the deepest nesting of objects and arrays
     * @param maxMembers the most members of one object or array
     * @param maxValues the most values in the whole document (objects, arrays, strings, numbers, literals)
     * @param maxStringLength the longest string or member name, in characters
     * @param maxNumberLength the longest number literal, in characters
     */
    public record Limits(int maxDepth, int maxMembers, int maxValues, int maxStringLength, int maxNumberLength) {
    }

    /** A document that is not JSON, exceeds a limit, or outlasted its budget; the message says which. */
    public static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean overDeadline;

        Rejected(String message) {
            this(message, false);
        }

        private Rejected(String message, boolean overDeadline) {
            super(message, null, false, false);
            this.overDeadline = overDeadline;
        }

        /** True when the document was not read within its budget (it may be valid JSON). */
        public boolean overDeadline() {
            return overDeadline;
        }
    }

    /** How often the budget is asked: every this many values and member names. */
    static final int CHECK_EVERY = 4096;

    /** An object or array under construction. */
    private static final class Open {
        final JsonObjectBuilder object;
        final JsonArrayBuilder array;
        String key;
        int members;

        Open(JsonProvider provider, boolean isObject) {
            this.object = isObject ? provider.createObjectBuilder() : null;
            this.array = isObject ? null : provider.createArrayBuilder();
        }

        JsonValue build() {
            return object != null ? object.build() : array.build();
        }
    }

    private final Limits limits;
    private final JsonProvider provider;

    /** Within these limits, with the JSON-P provider found once now. */
    public BoundedJson(Limits limits) {
        this(limits, JsonProvider.provider());
    }

    /** @param provider makes the parser and every value */
    BoundedJson(Limits limits, JsonProvider provider) {
        this.limits = java.util.Objects.requireNonNull(limits);
        this.provider = java.util.Objects.requireNonNull(provider);
    }

    /** The provider every value is made with: reuse it for more JSON-P work on the same request. */
    public JsonProvider provider() {
        return provider;
    }

    /**
     * The document as a tree, however long it takes (within the limits).
     *
     * @throws Rejected if the bytes are not one complete JSON value (UTF-8, UTF-16 or UTF-32), or
     *     exceed a limit
     */
    public JsonValue parse(byte[] document) throws Rejected {
        return parse(document, () -> false);
    }

    /**
     * The document as a tree, read before {@code spent} says the time for it is up.
     *
     * @param spent asked every {@value #CHECK_EVERY} values and member names; true ends the parse
     * @throws Rejected if the bytes are not one complete JSON value (UTF-8, UTF-16 or UTF-32),
     *     exceed a limit, or were not read before the budget was spent ({@link Rejected#overDeadline()})
     */
    public JsonValue parse(byte[] document, BooleanSupplier spent) throws Rejected {
        try (JsonParser parser = provider.createParser(new ByteArrayInputStream(document))) {
            JsonValue root = read(parser, spent);
            if (parser.hasNext()) {
                throw new Rejected("content after the end of the JSON document");
            }
            return root;
        } catch (RuntimeException e) {
            // JsonParsingException and JsonException: say where, not what (the text may be anything)
            throw new Rejected("not JSON" + location(e));
        }
    }

    private JsonValue read(JsonParser parser, BooleanSupplier spent) throws Rejected {
        Deque<Open> open = new ArrayDeque<>();
        int values = 0;
        int events = 0;
        while (parser.hasNext()) {
            JsonParser.Event event = parser.next();
            if (++events % CHECK_EVERY == 0 && spent.getAsBoolean()) {
                throw new Rejected("the document was not read within its time budget", true);
            }
            if (event == JsonParser.Event.KEY_NAME) {
                open.peek().key = checkString(parser.getString(), "member name");
                continue;
            }
            if (event == JsonParser.Event.END_OBJECT || event == JsonParser.Event.END_ARRAY) {
                JsonValue done = open.pop().build();
                if (open.isEmpty()) {
                    return done;
                }
                add(open.peek(), done);
                continue;
            }
            if (++values > limits.maxValues()) {
                throw new Rejected("more than " + limits.maxValues() + " values in the document");
            }
            if (!open.isEmpty() && ++open.peek().members > limits.maxMembers()) {
                throw new Rejected("more than " + limits.maxMembers() + " members in one object or array");
            }
            JsonValue value = switch (event) {
                case START_OBJECT, START_ARRAY -> null;
                case VALUE_STRING -> provider.createValue(checkString(parser.getString(), "string"));
                case VALUE_NUMBER -> number(parser);
                case VALUE_TRUE -> JsonValue.TRUE;
                case VALUE_FALSE -> JsonValue.FALSE;
                case VALUE_NULL -> JsonValue.NULL;
                default -> throw new Rejected("unexpected " + event);
            };
            if (value == null) {
                if (open.size() >= limits.maxDepth()) {
                    throw new Rejected("nesting deeper than " + limits.maxDepth() + " levels");
                }
                open.push(new Open(provider, event == JsonParser.Event.START_OBJECT));
            } else if (open.isEmpty()) {
                return value;
            } else {
                add(open.peek(), value);
            }
        }
        throw new Rejected("the document is empty or ends early");
    }

    private JsonValue number(JsonParser parser) throws Rejected {
        String text = parser.getString();
        if (text.length() > limits.maxNumberLength()) {
            throw new Rejected("a number of more than " + limits.maxNumberLength() + " characters");
        }
        return parser.getValue();
    }

    private String checkString(String text, String what) throws Rejected {
        if (text.length() > limits.maxStringLength()) {
            throw new Rejected("a " + what + " of more than " + limits.maxStringLength() + " characters");
        }
        return text;
    }

    private static void add(Open parent, JsonValue value) {
        if (parent.object != null) {
            parent.object.add(parent.key, value);
        } else {
            parent.array.add(value);
        }
    }

    private static String location(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("Expected EOF")) {
            return ": content after the end of the document"; // Parsson: "Expected EOF token, but got ..."
        }
        if (message.contains("EOF")) {
            return ": the document ends early";
        }
        if (e instanceof jakarta.json.stream.JsonParsingException parsing && parsing.getLocation() != null) {
            return " (at line " + parsing.getLocation().getLineNumber() + ", column " + parsing.getLocation().getColumnNumber()
                    + ")";
        }
        return "";
    }
}
