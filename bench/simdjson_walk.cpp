// simdjson_walk: the reference the DMF JSON reader is timed against (bench/json.py). It loads a
// file into a padded string, as simdjson's own examples do, and walks every value with the
// On-Demand API: every key and string unescaped, every number parsed as a double, every boolean
// and null taken. Prints a checksum of what it saw so that nothing can be skipped.
//   simdjson_walk FILE.json
#include <simdjson.h>

#include <cstdio>

namespace {

namespace od = simdjson::ondemand;

struct Checksum {
    double numbers = 0;
    unsigned long long values = 0;
    unsigned long long string_bytes = 0;
};

simdjson::error_code walk(od::value value, Checksum& sum);

simdjson::error_code walk_object(od::object object, Checksum& sum) {
    for (auto member : object) {
        std::string_view key;
        if (auto error = member.unescaped_key().get(key)) return error;
        sum.string_bytes += key.size();
        if (auto error = walk(member.value(), sum)) return error;
    }
    return simdjson::SUCCESS;
}

simdjson::error_code walk_array(od::array array, Checksum& sum) {
    for (auto element : array) {
        od::value value;
        if (auto error = element.get(value)) return error;
        if (auto error = walk(value, sum)) return error;
    }
    return simdjson::SUCCESS;
}

simdjson::error_code walk(od::value value, Checksum& sum) {
    ++sum.values;
    od::json_type type;
    if (auto error = value.type().get(type)) return error;
    switch (type) {
        case od::json_type::object: {
            od::object object;
            if (auto error = value.get_object().get(object)) return error;
            return walk_object(object, sum);
        }
        case od::json_type::array: {
            od::array array;
            if (auto error = value.get_array().get(array)) return error;
            return walk_array(array, sum);
        }
        case od::json_type::number: {
            double number = 0;
            if (auto error = value.get_double().get(number)) return error;
            sum.numbers += number;
            return simdjson::SUCCESS;
        }
        case od::json_type::string: {
            std::string_view text;
            if (auto error = value.get_string().get(text)) return error;
            sum.string_bytes += text.size();
            return simdjson::SUCCESS;
        }
        case od::json_type::boolean: {
            bool flag = false;
            if (auto error = value.get_bool().get(flag)) return error;
            sum.values += flag ? 1 : 0;
            return simdjson::SUCCESS;
        }
        case od::json_type::null:
            return value.is_null().error();
    }
    return simdjson::SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: simdjson_walk FILE.json\n");
        return 2;
    }
    simdjson::padded_string text;
    if (auto error = simdjson::padded_string::load(argv[1]).get(text)) {
        std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
        return 1;
    }
    od::parser parser;
    od::document document;
    if (auto error = parser.iterate(text).get(document)) {
        std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
        return 1;
    }
    // The root is walked as a value: an object or array document converts to one.
    Checksum sum;
    od::value root;
    auto error = document.get_value().get(root);
    if (!error) error = walk(root, sum);
    // current_location() fails once the walk has consumed the whole document.
    if (!error && !document.current_location().error()) error = simdjson::TRAILING_CONTENT;
    if (error) {
        std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
        return 1;
    }
    std::printf("%llu values, %llu string bytes, number sum %.17g\n", sum.values, sum.string_bytes,
                sum.numbers);
    return 0;
}
