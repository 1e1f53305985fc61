#include "CBenchSimdjson.h"

#include <simdjson.h>

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// The file's bytes as simdjson needs them: followed by SIMDJSON_PADDING
// readable bytes. A mapping whose last page has that much room past the end
// reads the file in place, as EasyBake's `.file` input does; otherwise the
// file is copied into a padded buffer, as simdjson's own `load` does.
class PaddedFile {
  public:
    explicit PaddedFile(const char *path) {
        int fd = open(path, O_RDONLY);
        if (fd < 0) {
            message_ = std::string("cannot open ") + path;
            return;
        }
        struct stat status;
        if (fstat(fd, &status) != 0) {
            message_ = std::string("cannot stat ") + path;
            close(fd);
            return;
        }
        size_ = size_t(status.st_size);
        size_t page = size_t(sysconf(_SC_PAGESIZE));
        size_t mapped = (size_ + page - 1) / page * page;
        if (size_ > 0 && mapped - size_ >= simdjson::SIMDJSON_PADDING) {
            void *bytes = mmap(nullptr, mapped, PROT_READ, MAP_PRIVATE, fd, 0);
            if (bytes != MAP_FAILED) {
                mapping_ = static_cast<const char *>(bytes);
                mappedSize_ = mapped;
            }
        }
        close(fd);
        if (mapping_ == nullptr) {
            if (auto code = simdjson::padded_string::load(path).get(copy_)) message_ = simdjson::error_message(code);
        }
    }
    ~PaddedFile() {
        if (mapping_ != nullptr) munmap(const_cast<char *>(mapping_), mappedSize_);
    }
    PaddedFile(const PaddedFile &) = delete;
    PaddedFile &operator=(const PaddedFile &) = delete;

    const std::string &message() const { return message_; }
    simdjson::padded_string_view view() const {
        if (mapping_ != nullptr) return simdjson::padded_string_view(mapping_, size_, mappedSize_);
        return simdjson::padded_string_view(copy_);
    }

  private:
    std::string message_;
    const char *mapping_ = nullptr;
    size_t size_ = 0;
    size_t mappedSize_ = 0;
    simdjson::padded_string copy_;
};

int fail(char *error, size_t capacity, const std::string &message) {
    if (capacity > 0) snprintf(error, capacity, "%s", message.c_str());
    return -1;
}

}  // namespace

extern "C" const char *easybake_bench_simdjson_implementation(void) {
    static const std::string name = simdjson::get_active_implementation()->name();
    return name.c_str();
}

extern "C" int easybake_bench_simdjson_dom_ids(
    const char *path, void *context, easybake_bench_id_callback each, char *error, size_t error_capacity) {
    PaddedFile file(path);
    if (!file.message().empty()) return fail(error, error_capacity, file.message());
    // A parser per run, as a bake allocates its index per run.
    simdjson::dom::parser parser;
    simdjson::dom::element document;
    if (auto code = parser.parse(file.view()).get(document)) return fail(error, error_capacity, simdjson::error_message(code));
    simdjson::dom::array users;
    if (auto code = document["users"].get_array().get(users)) return fail(error, error_capacity, simdjson::error_message(code));
    for (simdjson::dom::element user : users) {
        int64_t id;
        if (auto code = user["id"].get_int64().get(id)) return fail(error, error_capacity, simdjson::error_message(code));
        each(context, id);
    }
    return 0;
}

extern "C" int easybake_bench_simdjson_ondemand_picks(
    const char *path, void *context, easybake_bench_pick_callback each, char *error, size_t error_capacity) {
    PaddedFile file(path);
    if (!file.message().empty()) return fail(error, error_capacity, file.message());
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document document;
    if (auto code = parser.iterate(file.view()).get(document)) return fail(error, error_capacity, simdjson::error_message(code));
    simdjson::ondemand::array users;
    if (auto code = document["users"].get_array().get(users)) return fail(error, error_capacity, simdjson::error_message(code));
    for (auto element : users) {
        simdjson::ondemand::object user;
        if (auto code = element.get_object().get(user)) return fail(error, error_capacity, simdjson::error_message(code));
        // Fields are asked for in the payload's order: On-Demand reads
        // forward, and a field asked for out of order sends it back to the
        // object's start.
        int64_t id;
        if (auto code = user["id"].get_int64().get(id)) return fail(error, error_capacity, simdjson::error_message(code));
        std::string_view email;
        if (auto code = user["email"].get_string().get(email))
            return fail(error, error_capacity, simdjson::error_message(code));
        std::string_view city;
        if (auto code = user["address"]["city"].get_string().get(city))
            return fail(error, error_capacity, simdjson::error_message(code));
        each(context, id, email.data(), email.size(), city.data(), city.size());
    }
    return 0;
}
