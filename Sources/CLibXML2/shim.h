#ifndef EASYBAKE_CLIBXML2_SHIM_H
#define EASYBAKE_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so encoding.h would include the
   system's <unicode/ucnv.h>, whose enums clash with the ICU copy inside
   Foundation (_FoundationICU) in any module that imports both. EasyBake never
   touches the ICU fields of xmlCharEncodingHandler (only pointers to it), so
   the ICU part of the headers is left out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlIO.h>
#include <libxml/SAX2.h>
#include <libxml/entities.h>

/* libxml2's deallocator is a global function pointer, which Swift 6 treats as
   shared mutable state; calling it from C keeps that out of Swift. */
static inline void easybake_xml_free(void *pointer) { xmlFree(pointer); }

/* Some libxml2 errors carry no parser context (encoding conversion errors,
   "I/O error : encoder error") and go to the thread's generic error handler,
   which prints to stderr. EasyBake silences that handler on the calling
   thread for the duration of each call into the parser (the parser context
   reports the same failure through its structured callback) and restores it
   afterwards. The handler is variadic, which Swift cannot implement. */
typedef struct {
    xmlGenericErrorFunc handler;
    void *context;
} easybake_xml_error_state;

static inline void easybake_xml_ignore(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline easybake_xml_error_state easybake_xml_silence(void) {
    easybake_xml_error_state saved = { xmlGenericError, xmlGenericErrorContext };
    xmlSetGenericErrorFunc(NULL, easybake_xml_ignore);
    return saved;
}

static inline void easybake_xml_restore(easybake_xml_error_state saved) {
    xmlSetGenericErrorFunc(saved.context, saved.handler);
}
#endif
