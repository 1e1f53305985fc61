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
#endif
