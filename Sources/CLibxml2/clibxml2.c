#include "clibxml2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* libxml2's parser options (xmlParserOption): never fetch anything over the network. DTDs are not
   loaded and entities not substituted unless asked, which we do not. */
#define XML_PARSE_NONET (1 << 11)

static struct {
    almanac_xml_reader *(*reader_for_memory)(const char *, int, const char *, const char *, int);
    int (*read)(almanac_xml_reader *);
    int (*node_type)(almanac_xml_reader *);
    int (*is_empty_element)(almanac_xml_reader *);
    const unsigned char *(*local_name)(almanac_xml_reader *);
    const unsigned char *(*namespace_uri)(almanac_xml_reader *);
    const unsigned char *(*value)(almanac_xml_reader *);
    void (*free_reader)(almanac_xml_reader *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[256] = "libxml2 was not loaded";

#define RESOLVE(field, name)                                                                       \
    *(void **)(&api.field) = dlsym(library, name);                                                 \
    if (api.field == NULL) {                                                                       \
        snprintf(failure, sizeof failure, "libxml2.so.2 has no %s", name);                         \
        return;                                                                                    \
    }

static void load(void) {
    void *library = dlopen("libxml2.so.2", RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : "libxml2.so.2 not found");
        return;
    }
    RESOLVE(reader_for_memory, "xmlReaderForMemory");
    RESOLVE(read, "xmlTextReaderRead");
    RESOLVE(node_type, "xmlTextReaderNodeType");
    RESOLVE(is_empty_element, "xmlTextReaderIsEmptyElement");
    RESOLVE(local_name, "xmlTextReaderConstLocalName");
    RESOLVE(namespace_uri, "xmlTextReaderConstNamespaceUri");
    RESOLVE(value, "xmlTextReaderConstValue");
    RESOLVE(free_reader, "xmlFreeTextReader");
    loaded = 0;
}

int almanac_xml_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *almanac_xml_error(void) { return failure; }

almanac_xml_reader *almanac_xml_reader_for_memory(const char *buffer, int size) {
    return api.reader_for_memory(buffer, size, NULL, NULL, XML_PARSE_NONET);
}

int almanac_xml_read(almanac_xml_reader *reader) { return api.read(reader); }
int almanac_xml_node_type(almanac_xml_reader *reader) { return api.node_type(reader); }
int almanac_xml_is_empty_element(almanac_xml_reader *reader) { return api.is_empty_element(reader); }
const char *almanac_xml_local_name(almanac_xml_reader *reader) { return (const char *)api.local_name(reader); }
const char *almanac_xml_namespace(almanac_xml_reader *reader) { return (const char *)api.namespace_uri(reader); }
const char *almanac_xml_value(almanac_xml_reader *reader) { return (const char *)api.value(reader); }
void almanac_xml_free(almanac_xml_reader *reader) { api.free_reader(reader); }
