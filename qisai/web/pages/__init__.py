"""Pages: the server-rendered pages, templates and page routes only, one
module per domain (:mod:`.accounts`, :mod:`.play`, :mod:`.events`) and
its templates in ``templates/<domain>/``; :mod:`.render` renders them in
the viewer's language (:mod:`.i18n`)."""
