# Run at install time (install(CODE) in CMakeLists.txt): the kits' READMEs, written for the
# checkout (build/referee/cli/referee, sample_bots/starter/...), installed with the paths of the
# installation instead. Paths in the text use the final prefix (CMAKE_INSTALL_PREFIX: /usr in the
# .deb); the files are written below DESTDIR (CPack's staging folder) when it is set.
#   ARENA_STARTER_SOURCE  the source folder sample_bots/starter
#   ARENA_STARTER_DEST    where the kits go below the prefix (share/stellar-arena/starter)
#   ARENA_BOTS_DEST       the installed sample bots below the prefix (libexec/stellar-arena/sample_bots)
#   ARENA_STARTER_BIN     the installed C++ kit's folder below the prefix (libexec/stellar-arena/starter)
#   ARENA_SOURCES_DEST    the installed sample bots' sources below the prefix (share/stellar-arena/sample_bots)
#   ARENA_DOC_DEST        the installed docs below the prefix (share/doc/stellar-arena)
set(prefix "${CMAKE_INSTALL_PREFIX}")
foreach(readme README.md cpp/README.md python/README.md javascript/README.md)
  file(READ "${ARENA_STARTER_SOURCE}/${readme}" text)
  # Longest first: each replaced path is not found again by a shorter one.
  string(REPLACE "build/referee/cli/referee" "${prefix}/bin/referee" text "${text}")
  string(REPLACE "build/sample_bots/starter/starter_cpp" "${prefix}/${ARENA_STARTER_BIN}/starter_cpp" text "${text}")
  string(REPLACE "build/sample_bots/" "${prefix}/${ARENA_BOTS_DEST}/" text "${text}")
  string(REPLACE " sample_bots/starter/" " ${prefix}/${ARENA_STARTER_DEST}/" text "${text}")
  string(REPLACE "\"sample_bots/starter/" "\"${prefix}/${ARENA_STARTER_DEST}/" text "${text}")
  string(REPLACE "sample_bots/python/" "${prefix}/${ARENA_BOTS_DEST}/" text "${text}")
  string(REPLACE "`sample_bots/cpp/" "`${prefix}/${ARENA_SOURCES_DEST}/" text "${text}")
  string(REPLACE "../../../docs/" "${prefix}/${ARENA_DOC_DEST}/" text "${text}")
  string(REPLACE "../../docs/" "${prefix}/${ARENA_DOC_DEST}/" text "${text}")
  set(note "<!-- Installed copy: the paths below are those of this installation (prefix ${prefix}). -->\n")
  file(WRITE "$ENV{DESTDIR}${prefix}/${ARENA_STARTER_DEST}/${readme}" "${note}${text}")
endforeach()
